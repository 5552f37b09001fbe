package api

import (
	"errors"
	"testing"
)

// A delivery reads the same in the live service's wrapped shape and in
// the older flat one.
func TestReadDeliveryBothShapes(t *testing.T) {
	const ticket = `{"id":"6c1f0b6e-0000-4000-8000-000000000001","status":"PROCESSING"}`
	for _, tc := range []struct {
		name, body                                 string
		id, sub, subAccount, typ, subject, tstatus string
	}{
		{"wrapped ticket", `{"event":{"id":"ev-1","subscription":"TICKET","subAccountId":"sa-1","createdAt":"2026-11-27T10:00:00Z","data":{"type":"TICKET-CREATED","ticket":` + ticket + `}}}`,
			"ev-1", "TICKET", "sa-1", "TICKET-CREATED", "6c1f0b6e-0000-4000-8000-000000000001", "PROCESSING"},
		{"flat ticket", `{"id":"ev-2","accountId":"m","subAccountId":"","subscription":"TICKET","createdAt":"2026-11-27T10:00:00Z","data":{"status":"DEPOSIT-SUCCESS","ticket":` + ticket + `}}`,
			"ev-2", "TICKET", "", "DEPOSIT-SUCCESS", "6c1f0b6e-0000-4000-8000-000000000001", "PROCESSING"},
		{"flat with ids", `{"id":"ev-3","subscription":"TICKET","data":{"status":"TICKET-COMPLETE","ticketId":"t-9"}}`,
			"ev-3", "TICKET", "", "TICKET-COMPLETE", "t-9", ""},
		{"wrapped KYC", `{"event":{"id":"ev-4","subscription":"KYC","data":{"type":"KYC-COMPLETED","kycAttempt":{"id":"k-1"}}}}`,
			"ev-4", "KYC", "", "KYC-COMPLETED", "k-1", ""},
		{"wrapped limit", `{"event":{"id":"ev-5","subscription":"LIMIT-UPDATE","data":{"type":"LIMIT-UPDATED","limitInfo":{"id":"l-1"}}}}`,
			"ev-5", "LIMIT-UPDATE", "", "LIMIT-UPDATED", "l-1", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ReadDelivery([]byte(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if e.ID != tc.id || e.Subscription != tc.sub || e.SubAccountID != tc.subAccount || e.Type() != tc.typ || e.Subject() != tc.subject || e.TicketStatus() != tc.tstatus {
				t.Errorf("read %+v: type %q subject %q ticket status %q", e, e.Type(), e.Subject(), e.TicketStatus())
			}
		})
	}
	for _, bad := range []string{`{"hello":"world"}`, `{"event":{}}`, `[1,2]`, `not json`} {
		if e, err := ReadDelivery([]byte(bad)); err == nil {
			t.Errorf("%s read as %+v", bad, e)
		}
	}
	if _, err := ReadDelivery([]byte(`{"event":{}}`)); !errors.Is(err, ErrNotAnEvent) {
		t.Errorf("empty event: %v", err)
	}
}

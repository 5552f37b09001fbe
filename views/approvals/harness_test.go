package approvals

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tesouro-treasury/tesouro/ui/screentest"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/ui"
	"github.com/tesouro-treasury/tesouro/views/internal/fakeservice"
)

var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func quoteJSON(in, out, inCur, outCur string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"inputCurrency":%q,"inputPaymentMethod":"PIX","inputAmount":%q,"outputCurrency":%q,
		"outputPaymentMethod":"POLYGON","outputAmount":%q,"basePrice":"0.1823","pairName":"%s%s",
		"appliedFees":[{"type":"Conversion Fee","amount":"5","currency":%q},{"type":"Gas Fee","amount":0.25,"currency":%q}]}`,
		inCur, in, outCur, out, inCur, outCur, inCur, outCur))
}

// newOp builds a pending operation requested by requester.
func newOp(requester string, in string, age time.Duration) *api.Operation {
	return &api.Operation{
		ID: uuid.New(), RequesterEmail: requester, OperationType: "CREATE_TICKET", Status: api.OperationPending,
		Approvals: 0, MinApprovals: 2, CreatedAt: api.NewTime(now.Add(-age)),
		SubAccountID: "", SubAccountName: "Matriz",
		Payload:      json.RawMessage(`{"quoteToken":"eyJhbGciOiJIUzI1NiJ9.very-long-opaque-token-value","externalId":"ext-1","ticketBlockchainOutput":{"beneficiaryWalletId":"0b7d0f55-5b1e-4f8e-8a43-7fd8b1b0c0aa"}}`),
		DecodedQuote: quoteJSON(in, "181.234500", "BRL", "USDC"),
		Beneficiary:  json.RawMessage(`{"id":"0b7d0f55-5b1e-4f8e-8a43-7fd8b1b0c0aa","alias":"cold wallet","walletAddress":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","walletChain":"POLYGON"}`),
		Approvers: []api.Approver{{AccessID: uuid.New(), Email: "approver1@example.com"}, {AccessID: uuid.New(), Email: "approver2@example.com"},
			{AccessID: uuid.New(), Email: "approver3@example.com"}},
	}
}

type harness struct{ *fakeservice.Harness }

// newHarness drives the screen for the access of email, at now.
func newHarness(t *testing.T, svc *fakeservice.Service, email string, perms api.Permissions) harness {
	t.Helper()
	svc.Me = email
	s := fakeservice.Session(t, email, perms)
	s.Time = screentest.NewClock(now)
	return harness{fakeservice.Drive(t, s, func(s *ui.Session) ui.Screen { return New(s, svc) }, 120, 30)}
}

func (h harness) screen() *Screen { return h.Screen.(*Screen) }

// deciding opens the inbox of approver email with the requester's pending
// operation (theirs, see inbox) selected; before, when not nil, changes
// theirs as the service has it before the inbox loads.
func deciding(t *testing.T, email string, before func(theirs *api.Operation)) (harness, *fakeservice.Service, *api.Operation) {
	t.Helper()
	svc, theirs, _, _ := inbox()
	if before != nil {
		before(theirs)
	}
	h := newHarness(t, svc, email, approver)
	h.selectOp(theirs.ID)
	return h, svc, theirs
}

func (h harness) selectOp(id uuid.UUID) {
	h.T.Helper()
	if !h.screen().table.Select(id.String()) {
		h.T.Fatalf("operation %s is not listed", id)
	}
}

package api

import (
	"bytes"
	"encoding/json"

	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// The seed leaves some fields empty until they apply (no markup, a trade
// not yet settled). An empty string there is read as "none" instead of
// failing the whole answer.

// OptionalDecimal is an amount the service leaves empty ("" or null)
// where none applies (a quote's markup), read as zero; otherwise the
// decimal itself. It reads where it lies, so that the quote holding it
// needs no reading of its own (a page of tickets would be read twice).
type OptionalDecimal struct{ decimal.Decimal }

func (o *OptionalDecimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) || bytes.Equal(b, []byte(`""`)) {
		o.Decimal = decimal.Zero
		return nil
	}
	return o.Decimal.UnmarshalJSON(b)
}

// optUUID reads a UUID that may be "" or null (nil pointer).
type optUUID struct{ id *uuid.UUID }

func (o *optUUID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) || bytes.Equal(b, []byte(`""`)) {
		o.id = nil
		return nil
	}
	var id uuid.UUID
	if err := json.Unmarshal(b, &id); err != nil {
		return err
	}
	o.id = &id
	return nil
}

// UnmarshalJSON accepts an empty settlementTicketId on an unsettled trade.
func (t *Trade) UnmarshalJSON(b []byte) error {
	type plain Trade
	aux := struct {
		*plain
		SettlementTicketID optUUID `json:"settlementTicketId"`
	}{plain: (*plain)(t)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	t.SettlementTicketID = aux.SettlementTicketID.id
	return nil
}

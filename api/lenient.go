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

// optDecimal reads a decimal that may be "" or null (zero).
type optDecimal struct{ d decimal.Decimal }

func (o *optDecimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) || bytes.Equal(b, []byte(`""`)) {
		o.d = decimal.Zero
		return nil
	}
	return o.d.UnmarshalJSON(b)
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

// UnmarshalJSON accepts an empty markupAmount when no markup applies.
func (q *Quote) UnmarshalJSON(b []byte) error {
	type plain Quote
	aux := struct {
		*plain
		MarkupAmount optDecimal `json:"markupAmount"`
	}{plain: (*plain)(q)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	q.MarkupAmount = aux.MarkupAmount.d
	return nil
}

// UnmarshalJSON accepts an empty markupAmount when no markup applies.
func (q *TicketQuote) UnmarshalJSON(b []byte) error {
	type plain TicketQuote
	aux := struct {
		*plain
		MarkupAmount optDecimal `json:"markupAmount"`
	}{plain: (*plain)(q)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	q.MarkupAmount = aux.MarkupAmount.d
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

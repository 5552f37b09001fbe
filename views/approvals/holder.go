package approvals

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/api"
	"github.com/tesouro-treasury/tesouro/views/internal/pixholder"
)

// holderOf looks up who the PIX payout of op reaches, as the requester's
// confirmation did (see pixholder): nil when op pays no PIX output. The
// answer is kept whether it names a holder or says why none is known: the
// approver decides with it in view, since the requester already passed the
// same check, but an unknown key must be seen.
func holderOf(ctx context.Context, dir pixholder.Directory, op *api.Operation) *pixholder.Lookup {
	raw := object(op.Payload)["ticketBrlPixOutput"]
	if object(raw) == nil {
		return nil
	}
	l := &pixholder.Lookup{}
	var out api.TicketBrlPixOutput
	if err := json.Unmarshal(raw, &out); err != nil {
		l.Take(pixholder.Holder{}, fmt.Errorf("the request's PIX block cannot be read: %w", err))
		return l
	}
	l.Take(pixholder.Of(ctx, dir, attached(op.Beneficiary), out))
	return l
}

// attached reads the beneficiary record the service attached to an
// operation: the approver reads the payee as the service has it, without
// asking for the requester's beneficiaries.
func attached(raw json.RawMessage) pixholder.Records {
	return func(_ context.Context, id uuid.UUID) (*api.BRLAccount, error) {
		var b api.BRLAccount
		if object(raw) != nil && json.Unmarshal(raw, &b) == nil && b.ID == id {
			return &b, nil
		}
		return nil, fmt.Errorf("the service attached no record of beneficiary %s (deleted since the request?)", id)
	}
}

// holderLine is the confirmation's line about the holder, styled as the
// dashboard is.
func (m *Screen) holderLine(l *pixholder.Lookup) (string, bool) {
	if l == nil {
		return "", false
	}
	th := m.s.Styles()
	return l.Line(pixholder.Styles{Value: th.Value, Dim: th.Muted, Warn: th.Warn, Err: th.Error}, false)
}

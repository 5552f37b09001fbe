package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Webhook events come in two shapes: the live service wraps a delivery's
// event, {"event": {id, subscription, subAccountId, createdAt, data:
// {type, ticket}}} (spec/service.md §8.6), and older senders (the sandbox
// before it, recorded deliveries) post the event object itself, with
// data.status for its type. ReadDelivery reads both, and the methods
// below read an event's data whichever shape it came in; every surface
// that shows an event (webhooks verify, sandbox --forward-to, the
// Webhooks and Tickets screens) goes through them.

// ErrNotAnEvent means a body is JSON but no webhook event.
var ErrNotAnEvent = errors.New("not a webhook event: no id, subscription or data")

// ReadDelivery reads a webhook delivery's body, wrapped or flat.
func ReadDelivery(body []byte) (*WebhookEvent, error) {
	var wrapped struct {
		Event json.RawMessage `json:"event"`
	}
	if err := json.Unmarshal(body, &wrapped); err != nil {
		return nil, fmt.Errorf("webhook delivery: %w", err)
	}
	inner := body
	if ev := bytes.TrimSpace(wrapped.Event); len(ev) > 0 && ev[0] == '{' {
		inner = ev
	}
	var e WebhookEvent
	if err := json.Unmarshal(inner, &e); err != nil {
		return nil, fmt.Errorf("webhook delivery: %w", err)
	}
	if e.ID == "" && e.Subscription == "" && e.Data == nil {
		return nil, ErrNotAnEvent
	}
	return &e, nil
}

// Type is what happened (TICKET-CREATED, DEPOSIT-SUCCESS, KYC-COMPLETED…):
// data.type, else the older data.status.
func (e WebhookEvent) Type() string {
	for _, k := range []string{"type", "status"} {
		if s, ok := e.Data[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// Subject is the id of the record the event is about: the ticket's or
// the KYC attempt's, from the record data carries or the older id keys.
func (e WebhookEvent) Subject() string {
	for _, k := range []string{"ticket", "kycAttempt", "limitInfo"} {
		if m, ok := e.Data[k].(map[string]any); ok {
			if id, ok := m["id"].(string); ok && id != "" {
				return id
			}
		}
	}
	for _, k := range []string{"ticketId", "attemptId", "id"} {
		if s, ok := e.Data[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// TicketStatus is the status of the ticket the event carries ("" when it
// carries none).
func (e WebhookEvent) TicketStatus() string {
	if t, ok := e.Data["ticket"].(map[string]any); ok {
		if s, ok := t["status"].(string); ok {
			return s
		}
	}
	return ""
}

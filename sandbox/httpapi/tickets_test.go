package httpapi

import (
	"encoding/json"
	"testing"
)

// TestTicketListIsTheEncodedPage: the list's answer, made of the stored
// tickets' bytes, is byte for byte what encoding the page as a value gives
// (stored tickets are compact, HTML left unescaped), on a page with a
// cursor, the last page and an empty one.
func TestTicketListIsTheEncodedPage(t *testing.T) {
	type page struct {
		Tickets []json.RawMessage `json:"tickets"`
		Cursor  string            `json:"cursor"`
	}
	a, err := marshalJSON(map[string]any{"id": "a", "reason": "<pix> & co", "quote": map[string]string{"inputAmount": "1500.00"}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := marshalJSON(map[string]any{"id": "b", "externalId": "erp-\\"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		items  []json.RawMessage
		cursor string
	}{
		{[]json.RawMessage{a, b}, "MTcwMDAwMDAwMDAwMDAwMDAwMHxhYmM"},
		{[]json.RawMessage{a}, ""},
		{nil, ""},
	} {
		items := c.items
		if items == nil {
			items = []json.RawMessage{}
		}
		want, err := marshalJSON(page{Tickets: items, Cursor: c.cursor})
		if err != nil {
			t.Fatal(err)
		}
		if got := ticketList(c.items, c.cursor); string(got) != string(want) {
			t.Errorf("%d items, cursor %q:\n got %s\nwant %s", len(c.items), c.cursor, got, want)
		}
	}
}

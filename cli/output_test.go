package cli

import (
	"bytes"
	"strings"
	"testing"
)

func TestOutputFormats(t *testing.T) {
	data := []map[string]string{{"id": "1", "name": "=SUM(A1)"}}
	table := func() Table { return Table{Columns: []string{"id", "name"}, Rows: [][]string{{"1", "=SUM(A1)"}}} }
	for _, tc := range []struct {
		o    Output
		want string
	}{
		{Output{Format: "table"}, "ID  NAME\n1   =SUM(A1)\n"},
		{Output{Format: "csv"}, "id,name\n1,'=SUM(A1)\n"},
		{Output{Format: "table", JSON: true}, "[\n  {\n    \"id\": \"1\",\n    \"name\": \"=SUM(A1)\"\n  }\n]\n"},
		{Output{Format: "table", JQ: ".[0].name"}, "=SUM(A1)\n"},
		{Output{Format: "table", JQ: ".[] | {id}"}, "{\"id\":\"1\"}\n"},
	} {
		if err := tc.o.check(); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := tc.o.Write(&b, data, table); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.o, b.String(), tc.want)
		}
	}
	for _, o := range []Output{{Format: "xml"}, {Format: "csv", JSON: true}, {Format: "csv", JQ: "."}, {Format: "table", JQ: ".["}} {
		if err := o.check(); err == nil || !IsUsage(err) {
			t.Errorf("%+v: %v, want a usage error", o, err)
		}
	}
}

func TestVerifyDeliveryRefusesGarbage(t *testing.T) {
	if err := VerifyDelivery([]byte("not pem"), []byte("{}"), "c2ln"); err == nil || !strings.Contains(err.Error(), "PEM") {
		t.Errorf("%v", err)
	}
}

package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tesouro-treasury/tesouro/sandbox/engine"
)

// decodeBody decodes the JSON body into v. Fields beyond those declared pass
// through (the seed says so); a malformed body or a field of the wrong type
// is a 400 that names the problem.
func decodeBody(c *call, v any) error {
	body := bytes.TrimSpace(c.body)
	if len(body) == 0 {
		return badRequest(codeInvalidJSON, "request body is empty; send a JSON object")
	}
	if body[0] != '{' {
		return badRequest(codeInvalidJSON, "request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest(codeInvalidJSON, "request body has data after the JSON object")
	}
	return nil
}

func jsonError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "body"
		}
		return badRequest(codeInvalidField, "%s: expected %s, got JSON %s", field, jsonKind(te.Type.String()), te.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return badRequest(codeInvalidJSON, "request body is not valid JSON (at byte %d): %v", se.Offset, err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return badRequest(codeInvalidJSON, "request body is truncated JSON")
	}
	return badRequest(codeInvalidJSON, "request body: %v", err)
}

func jsonKind(t string) string {
	switch {
	case strings.Contains(t, "int"):
		return "an integer"
	case t == "string", strings.HasSuffix(t, "UUID"):
		return "a string"
	case t == "bool":
		return "a boolean"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.Contains(t, "Decimal"):
		return "a decimal string"
	}
	return "an object"
}

// pathUUID reads a UUID path parameter. A malformed id is a 400 (not a
// 404) so that the caller learns the id itself is wrong.
func (c *call) pathUUID(name string) (uuid.UUID, error) {
	raw := c.param(name)
	id, err := uuid.Parse(raw)
	if err != nil {
		return uuid.Nil, badRequest(codeInvalidField, "%s %q in the path is not a UUID", name, truncate(raw, 40))
	}
	return id, nil
}

// queryUnix reads an optional time filter in integer Unix seconds.
func (c *call) queryUnix(name string) (time.Time, error) {
	raw := c.query.Get(name)
	if raw == "" {
		return time.Time{}, nil
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, badRequest(codeInvalidField, "%s %q must be an integer of Unix seconds", name, truncate(raw, 40))
	}
	return time.Unix(n, 0).UTC(), nil
}

// queryBool reads an optional boolean query parameter.
func (c *call) queryBool(name string) (bool, error) {
	raw := c.query.Get(name)
	if raw == "" {
		return false, nil
	}
	b, err := strconv.ParseBool(raw)
	if err != nil {
		return false, badRequest(codeInvalidField, "%s %q must be true or false", name, truncate(raw, 20))
	}
	return b, nil
}

// createdWindow reads the createdAfter and createdBefore filters, each
// parsed by read (c.queryUnix or c.queryTimeEither), as a time window.
func (c *call) createdWindow(read func(name string) (time.Time, error)) (engine.Window, error) {
	after, err := read("createdAfter")
	if err != nil {
		return engine.Window{}, err
	}
	before, err := read("createdBefore")
	if err != nil {
		return engine.Window{}, err
	}
	return windowFrom(after, before)
}

// windowFrom makes a time window; before must be after after.
func windowFrom(after, before time.Time) (engine.Window, error) {
	if !after.IsZero() && !before.IsZero() && !before.After(after) {
		return engine.Window{}, badRequest(codeInvalidField, "createdBefore must be later than createdAfter")
	}
	return engine.Window{From: after, To: before}, nil
}

func httpBody(b []byte) io.ReadCloser { return io.NopCloser(bytes.NewReader(b)) }

// fmtTime writes a time as the service's records do (engine.FormatTime).
func fmtTime(t time.Time) string { return engine.FormatTime(t) }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// RawResponse is the whole answer to a raw request, whatever its status.
type RawResponse struct {
	Status int
	Header http.Header
	Body   []byte
}

// Raw sends a request built by hand (tesouro api), signed like every
// other: path is the escaped path from /v2 on, body the exact JSON to send
// (nil for none). Reads retry as usual; writes are sent once, never again
// blindly. Any status is returned as is.
func (c *Client) Raw(ctx context.Context, method, path string, query url.Values, body []byte) (*RawResponse, error) {
	method = strings.ToUpper(method)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("%s %s: give query parameters separately, not in the path", method, path)
	}
	cl := call{method: method, path: path, query: query}
	if body != nil {
		if !json.Valid(body) {
			return nil, fmt.Errorf("%s %s: the body is not valid JSON", method, path)
		}
		cl.body = json.RawMessage(body)
	}
	resp, err := c.do(ctx, cl)
	if err != nil {
		return nil, err
	}
	return &RawResponse{Status: resp.status, Header: resp.header, Body: resp.body}, nil
}

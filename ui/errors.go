package ui

import (
	"errors"
	"fmt"

	"github.com/tesouro-treasury/tesouro/api"
)

// ErrorText is an error as the dashboard shows it to a user: the service's
// own message and code when it sent one, without the method and path of
// the request (which the debug log keeps); any other error as it reads.
// Every screen shows errors through it.
func ErrorText(err error) string {
	if err == nil {
		return ""
	}
	var ae *api.Error
	if errors.As(err, &ae) {
		switch {
		case ae.Message != "" && ae.Code != "":
			return fmt.Sprintf("%s (%s, HTTP %d)", ae.Message, ae.Code, ae.Status)
		case ae.Message != "":
			return fmt.Sprintf("%s (HTTP %d)", ae.Message, ae.Status)
		case ae.Code != "":
			return fmt.Sprintf("the service refused (%s, HTTP %d)", ae.Code, ae.Status)
		default:
			return fmt.Sprintf("the service answered HTTP %d", ae.Status)
		}
	}
	if errors.Is(err, api.ErrNoAnswer) {
		// Which request and why the network failed are in the debug log
		// and the footer's banner; a panel says it in a few words.
		return "no answer from the service" // the caller says how to retry
	}
	return err.Error()
}

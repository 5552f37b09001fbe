package delivery

import (
	"bytes"
	"net/http"
)

// ServeInProcess has h answer req in this process, without a connection,
// and returns the status, the Content-Type and the body of its answer:
// how the demo receiver hears the sandbox's own deliveries.
func ServeInProcess(h http.Handler, req *http.Request) (status int, contentType string, body []byte) {
	var a handlerAnswer
	a.header = http.Header{}
	h.ServeHTTP(&a, req)
	if a.status == 0 {
		a.status = http.StatusOK
	}
	return a.status, a.header.Get("Content-Type"), a.body.Bytes()
}

// handlerAnswer is the http.ResponseWriter of ServeInProcess.
type handlerAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (a *handlerAnswer) Header() http.Header { return a.header }

func (a *handlerAnswer) WriteHeader(status int) {
	if a.status == 0 {
		a.status = status
	}
}

func (a *handlerAnswer) Write(p []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(p)
}

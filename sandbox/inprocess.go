package sandbox

import (
	"context"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// InProcessBaseURL is the base URL of a sandbox served in this process's
// memory (StartInProcess): only the client its Running hands out reaches
// it, over HTTP on in-memory pipes.
const InProcessBaseURL = "http://localhost"

// StartInProcess is Start for a client in this same process: the sandbox
// speaks HTTP over in-memory pipes rather than a socket, and only
// r.HTTPClient reaches it. A window open on an idle embedded sandbox then
// holds no socket, so the runtime has none to poll while nothing happens.
func StartInProcess(cfg Config) (*Running, error) {
	s, err := ready(cfg)
	if err != nil {
		return nil, err
	}
	ln := newPipeListener()
	r := s.serveOn(ln, InProcessBaseURL)
	r.dial = ln.dial
	return r, nil
}

// HTTPClient is an HTTP client of r. A sandbox served over a socket is
// reached by any client; one served in process only by this one.
func (r *Running) HTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	if r.dial != nil {
		// No proxy stands between a process and itself, and an idle pipe
		// costs nothing to keep: no timer closes it, and as many stay
		// open as the client ever used at once (net/http keeps two, and
		// each burst of requests beyond them dialled pipes, and started
		// the server's goroutines for them, only to close them).
		t.Proxy = nil
		t.IdleConnTimeout = 0
		t.MaxIdleConnsPerHost = 64
		t.DialContext = func(ctx context.Context, _, _ string) (net.Conn, error) { return r.dial(ctx) }
	}
	return &http.Client{Transport: t}
}

// pipeListener accepts the server ends of the in-memory pipes its dial
// opens.
type pipeListener struct {
	conns chan net.Conn
	done  chan struct{}
	once  sync.Once
	seq   atomic.Uint32
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

// dial opens a pipe and hands its server end to Accept. The server hears
// it from loopback, which the client in this process is: the checks of
// where a request comes from (an API key's allow-list) see this machine.
func (l *pipeListener) dial(ctx context.Context) (net.Conn, error) {
	c, sv := net.Pipe()
	port := int(l.seq.Add(1)%65535) + 1
	client := addressed{c, &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}, pipeAddr{}}
	server := addressed{sv, pipeAddr{}, client.local}
	select {
	case l.conns <- server:
		return client, nil
	case <-l.done:
	case <-ctx.Done():
		client.Close()
		server.Close()
		return nil, ctx.Err()
	}
	client.Close()
	server.Close()
	return nil, &net.OpError{Op: "dial", Net: "pipe", Err: net.ErrClosed}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr{} }

// pipeAddr is the address of the in-memory listener.
type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "in-process" }

// addressed is one end of a pipe with the addresses it reports.
type addressed struct {
	net.Conn
	local, remote net.Addr
}

func (a addressed) LocalAddr() net.Addr  { return a.local }
func (a addressed) RemoteAddr() net.Addr { return a.remote }

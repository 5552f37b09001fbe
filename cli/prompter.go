package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/tesouro-treasury/tesouro/keystore"
)

// Prompter is the one way a command asks the person at the terminal: a
// yes/no question, a line typed back (a production batch's total), a
// secret without echo. Questions go to stderr, never mixed with the output
// scripts read. Stdin is read through one buffer, so that answers piped in
// one per line reach the questions in order.
type Prompter struct {
	in   io.Reader
	out  io.Writer
	tty  bool
	once sync.Once
	r    *bufio.Reader
}

// NewPrompter asks on streams' stderr and reads stdin.
func NewPrompter(streams IOStreams) *Prompter {
	return &Prompter{in: streams.Stdin, out: streams.Stderr, tty: streams.StdinTTY()}
}

func (p *Prompter) reader() *bufio.Reader {
	p.once.Do(func() { p.r = bufio.NewReader(p.in) })
	return p.r
}

// Confirm asks a yes/no question at the terminal; anything but y or yes is
// no. Without a terminal it is no: a script cannot say yes by accident.
func (p *Prompter) Confirm(ctx context.Context, question string) bool {
	if !p.tty {
		return false
	}
	a, err := p.Line(ctx, question+" [y/N] ")
	if err != nil {
		return false
	}
	a = strings.ToLower(a)
	return a == "y" || a == "yes"
}

// Line asks for one line and returns it trimmed. A cancelled ctx (a signal)
// stops the wait.
func (p *Prompter) Line(ctx context.Context, label string) (string, error) {
	defer pauseDeadline(ctx)()
	fmt.Fprint(p.out, label)
	type answer struct {
		line string
		err  error
	}
	got := make(chan answer, 1)
	go func() {
		line, err := p.reader().ReadString('\n')
		got <- answer{line, err}
	}()
	select {
	case <-ctx.Done():
		fmt.Fprintln(p.out)
		return "", ctx.Err()
	case a := <-got:
		if a.err != nil && a.line == "" {
			return "", a.err
		}
		return strings.TrimSpace(a.line), nil
	}
}

// terminalFD returns the descriptor of stdin when it is a terminal.
func (p *Prompter) terminalFD() (int, bool) {
	f, ok := p.in.(*os.File)
	if !ok {
		return 0, false
	}
	fd := int(f.Fd())
	return fd, term.IsTerminal(fd)
}

// Secret asks for one secret: a no-echo prompt on a terminal, else the
// next line of stdin.
func (p *Prompter) Secret(label string) (string, error) {
	if fd, ok := p.terminalFD(); ok {
		fmt.Fprint(p.out, label)
		b, err := term.ReadPassword(fd)
		fmt.Fprintln(p.out)
		if err != nil {
			return "", err
		}
		if len(b) == 0 {
			return "", errors.New("nothing was typed")
		}
		return string(b), nil
	}
	line, err := p.reader().ReadString('\n')
	line = strings.TrimRight(line, "\r\n")
	if line == "" {
		if err == nil || errors.Is(err, io.EOF) {
			return "", fmt.Errorf("stdin has no line for %q: pipe it in, one per line, or run in a terminal", strings.TrimSuffix(strings.TrimSpace(label), ":"))
		}
		return "", err
	}
	return line, nil
}

// maxSecretFile bounds what is read from a secret file, so that pointing
// at the wrong file fails clearly instead of filling the keyring.
const maxSecretFile = keystore.MaxSecretBytes

// SecretFile reads a secret from path, or all of stdin for "-".
func (p *Prompter) SecretFile(path, what string) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = p.reader()
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read the %s: %w", what, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, maxSecretFile+1))
	if err != nil {
		return nil, fmt.Errorf("read the %s: %w", what, err)
	}
	if len(b) > maxSecretFile {
		return nil, fmt.Errorf("the %s in %s is larger than %d bytes: is it the right file?", what, path, maxSecretFile)
	}
	if len(strings.TrimSpace(string(b))) == 0 {
		return nil, fmt.Errorf("the %s in %s is empty", what, path)
	}
	return b, nil
}

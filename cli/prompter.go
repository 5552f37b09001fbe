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

	"charm.land/huh/v2"

	"github.com/tesouro-treasury/tesouro/keystore"
)

// Prompter is the one way a command asks the person at the terminal: a
// yes/no question, a line typed back (a production batch's total), a
// secret without echo, each a huh field. Questions go to stderr, never
// mixed with the output scripts read. Without a terminal, stdin is read
// through one buffer, so that answers piped in one per line reach the
// questions in order.
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

// Confirm asks a yes/no question at the terminal (huh's confirmation: y
// or n, enter takes the selection, which starts on No). Without a
// terminal it is no: a script cannot say yes by accident. The command's
// deadline stops while the person answers.
func (p *Prompter) Confirm(ctx context.Context, question string) bool {
	if !p.tty {
		return false
	}
	defer pauseDeadline(ctx)()
	yes := false
	field := huh.NewConfirm().Title(question).Affirmative("Yes").Negative("No").Value(&yes)
	if err := p.form(field).RunWithContext(ctx); err != nil {
		return false
	}
	return yes
}

// Line asks for one line at the terminal (a production batch's total,
// typed back) and returns it trimmed. A cancelled ctx (a signal) stops the
// wait; without a terminal it reads the next line of stdin.
func (p *Prompter) Line(ctx context.Context, label string) (string, error) {
	defer pauseDeadline(ctx)()
	if !p.tty {
		fmt.Fprint(p.out, label)
		line, err := p.readLine(ctx)
		return strings.TrimSpace(line), err
	}
	var answer string
	if err := p.form(huh.NewInput().Title(strings.TrimSpace(label)).Value(&answer)).RunWithContext(ctx); err != nil {
		return "", err
	}
	return strings.TrimSpace(answer), nil
}

// form is one field asked on the prompter's streams.
func (p *Prompter) form(field huh.Field) *huh.Form {
	return huh.NewForm(huh.NewGroup(field)).WithInput(p.in).WithOutput(p.out).WithShowHelp(false)
}

// readLine reads the next line of stdin; a cancelled ctx stops the wait.
func (p *Prompter) readLine(ctx context.Context) (string, error) {
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
		return a.line, nil
	}
}

// Secret asks for one secret: huh's password input at a terminal (nothing
// echoed), else the next line of stdin (secrets piped one per line, which
// huh does not read).
func (p *Prompter) Secret(label string) (string, error) {
	if p.tty {
		var secret string
		in := huh.NewInput().Title(strings.TrimSpace(label)).EchoMode(huh.EchoModePassword).Value(&secret)
		if err := p.form(in).Run(); err != nil {
			return "", err
		}
		if secret == "" {
			return "", errors.New("nothing was typed")
		}
		return secret, nil
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

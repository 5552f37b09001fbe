package sandbox_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// The sandbox's rooms and the rooms each may import: imports run one way,
// from the surfaces down to the database, and a room never imports one
// that stands above it (nor the façade, this package).
var rooms = map[string][]string{
	"store":    {},
	"records":  {},
	"faults":   {},
	"engine":   {"store", "records"},
	"demo":     {"engine", "records", "store"},
	"delivery": {"engine", "records"},
	"team":     {"engine", "records", "store"},
	"httpapi":  {"engine", "records", "delivery", "faults", "team"},
	".":        {"store", "records", "faults", "engine", "demo", "delivery", "httpapi", "team"},
}

// noHTTP are the rooms that know nothing of HTTP.
var noHTTP = []string{"store", "records", "engine", "demo", "team"}

// callbackFree are the rooms that hold no package-level function
// variables: a room above could set one to be called back from below.
var callbackFree = []string{"store", "records", "engine", "team"}

// maxShare is the most of the sandbox's lines one room may hold.
const maxShare = 0.40

const module = "github.com/tesouro-treasury/tesouro/"

// room is what a room's non-test Go files say: their imports, their
// package-level function variables and their lines.
type room struct {
	imports   map[string][]string // import path → files importing it
	funcVars  []string
	lines     int
	withFiles bool
}

func readRoom(t *testing.T, dir string) room {
	t.Helper()
	r := room{imports: map[string][]string{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		path := filepath.Join(dir, name)
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		r.withFiles = true
		r.lines += bytes.Count(src, []byte("\n"))
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			r.imports[p] = append(r.imports[p], name)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				_, isFunc := v.Type.(*ast.FuncType)
				for _, val := range v.Values {
					if _, ok := val.(*ast.FuncLit); ok {
						isFunc = true
					}
				}
				if isFunc {
					for _, n := range v.Names {
						r.funcVars = append(r.funcVars, name+": "+n.Name)
					}
				}
			}
		}
	}
	return r
}

// TestRoomsImportDownward reads the sandbox's rooms from their source: no
// room imports the client's api/ package (tests may, to prove that client
// and sandbox agree over HTTP), each imports only the rooms below it, the
// rooms under the engine know nothing of HTTP, the lower rooms keep no
// function variables to be called back through, and no room holds more
// than maxShare of the sandbox's lines. Run with -v for the lines of each.
func TestRoomsImportDownward(t *testing.T) {
	names := make([]string, 0, len(rooms))
	for n := range rooms {
		names = append(names, n)
	}
	sort.Strings(names)
	// Every folder of the sandbox with Go files is a room of the table.
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if d.IsDir() && readRoom(t, d.Name()).withFiles && rooms[d.Name()] == nil {
			t.Errorf("sandbox/%s is not a room of the table in layout_test.go: say what it may import", d.Name())
		}
	}

	read := map[string]room{}
	total := 0
	for _, n := range names {
		read[n] = readRoom(t, n)
		total += read[n].lines
	}
	for _, n := range names {
		r := read[n]
		for p, files := range r.imports {
			switch {
			case p == module+"api" || strings.HasPrefix(p, module+"api/"):
				t.Errorf("sandbox/%s imports the client's %s (%s): the sandbox keeps its own reading of the contract", n, p, strings.Join(files, ", "))
			case p == module+"sandbox" || strings.HasPrefix(p, module+"sandbox/"):
				to := strings.TrimPrefix(strings.TrimPrefix(p, module+"sandbox"), "/")
				if to == "" {
					to = "."
				}
				if !slices.Contains(rooms[n], to) {
					t.Errorf("sandbox/%s imports sandbox/%s (%s), which it may not: it imports only %v", n, to, strings.Join(files, ", "), rooms[n])
				}
			case (p == "net/http" || strings.HasPrefix(p, "net/http/")) && slices.Contains(noHTTP, n):
				t.Errorf("sandbox/%s imports %s (%s): it knows nothing of HTTP", n, p, strings.Join(files, ", "))
			}
		}
		if slices.Contains(callbackFree, n) && len(r.funcVars) > 0 {
			t.Errorf("sandbox/%s has package-level function variables, which a room above could set to be called back: %v", n, r.funcVars)
		}
		share := float64(r.lines) / float64(total)
		t.Logf("sandbox/%-9s %5d lines  %4.1f%%", n, r.lines, 100*share)
		if share > maxShare {
			t.Errorf("sandbox/%s holds %.1f%% of the sandbox's %d lines, more than %.0f%%: give part of it a room of its own", n, 100*share, total, 100*maxShare)
		}
	}
	t.Logf("sandbox/ total    %5d lines", total)
}

package httpapi

import (
	"net/http"
	"sort"
	"strings"
)

// handlerFunc serves one route. It writes its response through the call and
// returns an *apiError (or nil); any other error is a bug and becomes a 500.
type handlerFunc func(c *call) error

// authMode says what a route needs of the caller.
type authMode int

const (
	authNone   authMode = iota // public: no credentials looked at
	authAccess                 // an authenticated access
)

type route struct {
	method string
	segs   []string // "{name}" segments are parameters
	auth   authMode
	h      handlerFunc
}

// router matches a method and a path. Collection paths match with and
// without a trailing slash (the guides write one, the catalogue does not).
type router struct {
	routes []route
}

func splitPath(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// handle registers a route; pattern is "/v2/a/{id}/b".
func (r *router) handle(method, pattern string, auth authMode, h handlerFunc) {
	r.routes = append(r.routes, route{method: method, segs: splitPath(pattern), auth: auth, h: h})
	// Literal segments win over parameters: "/approver" is not an operation id.
	sort.SliceStable(r.routes, func(i, j int) bool { return literalCount(r.routes[i].segs) > literalCount(r.routes[j].segs) })
}

func literalCount(segs []string) int {
	n := 0
	for _, s := range segs {
		if !strings.HasPrefix(s, "{") {
			n++
		}
	}
	return n
}

// match finds the route for a request. allowed lists the methods of the
// routes whose path matched when none had the method.
func (r *router) match(method, path string) (rt *route, params map[string]string, allowed []string) {
	segs := splitPath(path)
	for i := range r.routes {
		cand := &r.routes[i]
		p, ok := matchSegs(cand.segs, segs)
		if !ok {
			continue
		}
		if cand.method != method {
			allowed = append(allowed, cand.method)
			continue
		}
		return cand, p, nil
	}
	return nil, nil, allowed
}

func matchSegs(pattern, segs []string) (map[string]string, bool) {
	if len(pattern) != len(segs) {
		return nil, false
	}
	var params map[string]string
	for i, p := range pattern {
		if strings.HasPrefix(p, "{") {
			if segs[i] == "" {
				return nil, false
			}
			if params == nil {
				params = make(map[string]string, 2)
			}
			params[p[1:len(p)-1]] = segs[i]
			continue
		}
		if p != segs[i] {
			return nil, false
		}
	}
	return params, true
}

func methodNotAllowed(w http.ResponseWriter, method, path string, allowed []string) {
	w.Header().Set("Allow", strings.Join(allowed, ", "))
	writeError(w, errf(http.StatusMethodNotAllowed, codeMethodNotAllowed, "%s is not allowed on %s (allowed: %s)", method, path, strings.Join(allowed, ", ")))
}

// Route is one route of the interface: its method and its path pattern
// ("{name}" segments are parameters).
type Route struct {
	Method, Pattern string
	Public          bool // needs no credentials
}

// Routes are the interface's routes, in the order they are matched.
func (s *Server) Routes() []Route {
	out := make([]Route, len(s.routes.routes))
	for i, rt := range s.routes.routes {
		out[i] = Route{Method: rt.method, Pattern: "/" + strings.Join(rt.segs, "/"), Public: rt.auth == authNone}
	}
	return out
}

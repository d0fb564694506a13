package view

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html/template"
	"log"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/mcpeval/mcpeval/internal/report/htmlreport"
)

//go:embed templates/*.tmpl view.css view.js
var files embed.FS

// Options configure a Server.
type Options struct {
	// Dirs are the run directories, or directories of run directories, to
	// show.
	Dirs []string
	// Suite loads the suite a run is graded against; nil reads each run's
	// grades.json instead.
	Suite SuiteFunc
	// Addr is the address the server is bound to ("127.0.0.1:8080"): every
	// request's Host header must name it.
	Addr string
	// Reviewer is the name reviews are written under by default.
	Reviewer string
	// ReadOnly refuses every write, a review or a verified case, and
	// offers neither on the pages.
	ReadOnly bool
	// Version is mcpeval's version, for the footer.
	Version string
	// Poll is how often a live page's server looks for new attempts; one
	// second when zero.
	Poll time.Duration
	// Log receives the server's problems; nil discards them.
	Log *log.Logger
}

// Server is the web app. It is an http.Handler.
type Server struct {
	opts  Options
	store *store
	tmpl  *template.Template
	asset asset
	csrf  string
	hosts map[string]bool
	// anyIP is the port of a server bound to every address ("0.0.0.0"):
	// then a Host that is an IP address with that port is accepted too, as
	// a name in Host is what DNS rebinding needs.
	anyIP string
	mux   *http.ServeMux
	// reviewing serialises the writes: reviews and verified cases.
	reviewing sync.Mutex
}

// asset is the page's style and script and the policy that allows exactly
// them; the shared "head" and "foot" templates read these fields.
type asset struct {
	Style  template.CSS
	Script template.JS
	CSP    string
}

// New returns a server over opts.Dirs.
func New(opts Options) (*Server, error) {
	if len(opts.Dirs) == 0 {
		opts.Dirs = []string{"runs"}
	}
	if opts.Poll == 0 {
		opts.Poll = time.Second
	}
	t, err := htmlreport.Templates().Funcs(funcs).ParseFS(files, "templates/*.tmpl")
	if err != nil {
		return nil, fmt.Errorf("parsing view templates: %w", err)
	}
	tok := make([]byte, 32)
	if _, err := rand.Read(tok); err != nil {
		return nil, fmt.Errorf("making the session token: %w", err)
	}
	s := &Server{opts: opts, store: newStore(opts.Dirs, opts.Suite), tmpl: t, asset: newAsset(), csrf: hex.EncodeToString(tok)}
	s.hosts = allowedHosts(opts.Addr)
	if host, port, err := net.SplitHostPort(opts.Addr); err == nil {
		if ip := net.ParseIP(host); ip != nil && ip.IsUnspecified() {
			s.anyIP = port
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.runsPage)
	mux.HandleFunc("GET /run/{key}", s.runPage)
	mux.HandleFunc("GET /attempt", s.attemptPage)
	mux.HandleFunc("POST /review", s.reviewPost)
	mux.HandleFunc("POST /verify", s.verifyPost)
	mux.HandleFunc("GET /compare", s.comparePage)
	mux.HandleFunc("GET /ladder", s.ladderPage)
	mux.HandleFunc("GET /history", s.historyPage)
	mux.HandleFunc("GET /events", s.events)
	s.mux = mux
	return s, nil
}

func newAsset() asset {
	css, _ := files.ReadFile("view.css")
	js, _ := files.ReadFile("view.js")
	style := htmlreport.Style() + "\n" + string(css)
	hash := func(b []byte) string {
		h := sha256.Sum256(b)
		return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
	}
	return asset{
		Style:  template.CSS(style),
		Script: template.JS(js),
		CSP: "default-src 'none'; style-src " + hash([]byte(style)) + "; script-src " + hash(js) +
			"; img-src data:; connect-src 'self'; form-action 'self'; base-uri 'none'",
	}
}

// allowedHosts are the Host headers a request may carry: the bound
// address, and for a loopback address its other loopback names.
func allowedHosts(addr string) map[string]bool {
	hosts := map[string]bool{}
	if addr == "" {
		return hosts
	}
	hosts[strings.ToLower(addr)] = true
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return hosts
	}
	if ip := net.ParseIP(host); host == "localhost" || (ip != nil && (ip.IsLoopback() || ip.IsUnspecified())) {
		for _, h := range []string{"localhost", "127.0.0.1", "[::1]"} {
			hosts[h+":"+port] = true
		}
	}
	return hosts
}

// ipHost reports whether host is an IP address with the port of a server
// bound to every address.
func (s *Server) ipHost(host string) bool {
	if s.anyIP == "" {
		return false
	}
	h, port, err := net.SplitHostPort(host)
	return err == nil && port == s.anyIP && net.ParseIP(h) != nil
}

// CSRF returns the session's token, which every review must carry.
func (s *Server) CSRF() string { return s.csrf }

// ServeHTTP checks the request's Host, sets the security headers and
// serves the page.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if len(s.hosts) > 0 && !s.hosts[strings.ToLower(r.Host)] && !s.ipHost(r.Host) {
		// A page of another site that rebinds its name to this address
		// arrives with its own name in Host.
		http.Error(w, "mcpeval view: unexpected Host header "+fmt.Sprintf("%q", r.Host)+": open the address mcpeval view printed", http.StatusMisdirectedRequest)
		return
	}
	h := w.Header()
	// The page's <meta> carries the policy too; frame-ancestors works only
	// in the header.
	h.Set("Content-Security-Policy", s.asset.CSP+"; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
	s.mux.ServeHTTP(w, r)
}

// sameOrigin refuses a request another site's page made: a wrong CSRF
// token, or an Origin or Sec-Fetch-Site that names another site.
func (s *Server) sameOrigin(r *http.Request) error {
	tok := r.PostFormValue("csrf")
	if subtle.ConstantTimeCompare([]byte(tok), []byte(s.csrf)) != 1 {
		return fmt.Errorf("missing or wrong session token: reload the page and try again")
	}
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return fmt.Errorf("a request from another site (%s) is refused", site)
	}
	if o := r.Header.Get("Origin"); o != "" && o != "null" {
		u, err := url.Parse(o)
		if err != nil || !strings.EqualFold(u.Host, r.Host) {
			return fmt.Errorf("a request from another origin is refused")
		}
	}
	return nil
}

// render executes template name with data into w.
func (s *Server) render(w http.ResponseWriter, status int, name string, data any) {
	var buf bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&buf, name, data); err != nil {
		s.logf("rendering %s: %v", name, err)
		http.Error(w, "mcpeval view: rendering the page failed; see the terminal", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(htmlreport.Visible(buf.Bytes()))
}

// fail shows a page saying what went wrong.
func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	s.render(w, status, "error.html.tmpl", s.page("Problem", struct{ Message string }{msg}))
}

func (s *Server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		s.opts.Log.Printf(format, args...)
	}
}

// page is what every page's shared head and foot read, with the page's
// own data in Data.
type page struct {
	Title, Banner, Version string
	Asset                  asset
	CSRF                   string
	// Live names the run whose attempts the page's script follows ("*"
	// for every run).
	Live string
	Data any
}

func (s *Server) page(title string, data any) *page {
	return &page{Title: title, Version: s.opts.Version, Asset: s.asset, CSRF: s.csrf, Data: data}
}

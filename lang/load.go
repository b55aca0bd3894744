package lang

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/srezc/srezc/mutations"
	"github.com/srezc/srezc/scenarios"
	"github.com/srezc/srezc/stdlib"
)

// Ext is the extension of srezc source files.
const Ext = ".srez.hcl"

// StdlibPrefix names embedded stdlib files in diagnostics.
const StdlibPrefix = "stdlib/"

// StdlibFiles returns the embedded standard library, sorted by name.
func StdlibFiles() []*File { return embeddedFiles(stdlib.FS, StdlibPrefix, true) }

// ScenarioPrefix names the embedded default suite's files in diagnostics.
const ScenarioPrefix = "scenarios/"

// ScenarioFiles returns the embedded default suite, sorted by name; commands
// given no PATH run it.
func ScenarioFiles() []*File { return embeddedFiles(scenarios.FS, ScenarioPrefix, false) }

// MutationPrefix names the embedded mutations' files in diagnostics.
const MutationPrefix = "mutations/"

// MutationFiles returns the embedded mutation blocks and suite specs over
// the default suite, sorted by name. They declare no incident, so loading
// them beside the scenarios leaves the default suite as it is.
func MutationFiles() []*File { return embeddedFiles(mutations.FS, MutationPrefix, false) }

// EmbeddedFiles returns the embedded default: the scenarios and the
// mutations over them (not the stdlib, which every analysis has). Commands
// given no PATH read it; a user's module may name its incidents and
// mutations as bases (Module.MutationBase, Module.Mutation).
func EmbeddedFiles() []*File { return append(ScenarioFiles(), MutationFiles()...) }

func embeddedFiles(fsys fs.FS, prefix string, std bool) []*File {
	var out []*File
	_ = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, Ext) {
			return nil
		}
		src, rerr := fs.ReadFile(fsys, p)
		if rerr == nil {
			out = append(out, &File{Name: prefix + p, Src: src, Stdlib: std})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ReadPaths reads files and folders (recursively, *.srez.hcl only) in a
// stable order. Unreadable paths become diagnostics.
func ReadPaths(paths []string) ([]*File, Diagnostics) {
	var files []*File
	var diags Diagnostics
	seen := map[string]bool{}
	add := func(p string) {
		if seen[p] {
			return
		}
		seen[p] = true
		src, err := readLimited(p)
		if err != nil {
			diags = append(diags, &Diagnostic{Severity: Error, Summary: "Cannot read file", Detail: err.Error(), Subject: &Range{Filename: p, Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 1}}})
			return
		}
		files = append(files, &File{Name: filepath.ToSlash(p), Src: src})
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			diags = append(diags, &Diagnostic{Severity: Error, Summary: "Cannot read path", Detail: err.Error(), Subject: &Range{Filename: p, Start: Pos{Line: 1, Column: 1}, End: Pos{Line: 1, Column: 1}}})
			continue
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		var found []string
		_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && q != p && skippedDir(d.Name()) {
				return filepath.SkipDir
			}
			if err == nil && !d.IsDir() && strings.HasSuffix(q, Ext) {
				found = append(found, q)
			}
			return nil
		})
		sort.Strings(found)
		for _, q := range found {
			add(q)
		}
	}
	return files, diags
}

// ExportedStdlibDir is where srezc export scenarios writes the stdlib's
// sources, for reading: a folder the loader skips.
const ExportedStdlibDir = "_stdlib"

// skippedDir reports whether a folder met while walking a PATH is left
// out of the module, as the go tool leaves them out: names starting with
// "_" (a copy of the stdlib for reading, which would otherwise declare
// everything twice) or "." (.git, an editor's folder).
func skippedDir(name string) bool {
	return strings.HasPrefix(name, "_") || strings.HasPrefix(name, ".")
}

// readLimited reads a file, or its first MaxFileBytes+1 bytes when it is
// larger: enough for the front end to refuse it without holding it all.
func readLimited(p string) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
}

// Analyze parses, decodes and checks files together with the embedded
// stdlib. It always returns a module (with broken declarations marked) and
// every diagnostic, sorted.
//
// The stdlib is analysed once per process (see Base): it was two thirds
// of every analysis, every keystroke in the language server and every
// fuzz input.
func Analyze(files []*File) (*Module, Diagnostics) {
	return analyze(baseFor(files), files, embeddedDefault)
}

// baseFor is the embedded stdlib's Base. The first analysis of a process
// parses the stdlib on every core, then its own files while the stdlib is
// checked (a validate's first and only analysis is mostly parsing).
func baseFor(files []*File) *Base {
	embeddedOnce.Do(func() {
		std := StdlibFiles()
		parseAll(std)
		parsed := make(chan struct{})
		go func() {
			defer close(parsed)
			parseAll(files)
		}()
		embedded = NewBase(std)
		<-parsed
	})
	return embedded
}

var (
	embeddedOnce sync.Once
	embedded     *Base
)

// parseAll puts the files' syntax trees in the parse cache, parsing those
// missing in parallel: each file parses alone, so the trees are the ones
// parsing in turn would make.
func parseAll(files []*File) {
	if len(files) > maxParsedFiles {
		return // they would evict each other
	}
	next := make(chan *File)
	var wg sync.WaitGroup
	for w := 0; w < min(runtime.GOMAXPROCS(0), len(files)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range next {
				parseCached(f)
			}
		}()
	}
	for _, f := range files {
		next <- f
	}
	close(next)
	wg.Wait()
}

// embeddedDefault is the embedded default analysed once per process, and
// only when a module looks up a name it does not declare. It has no
// embedded fallback of its own.
var embeddedDefault = sync.OnceValue(func() *Module {
	m, _ := baseFor(nil).Analyze(EmbeddedFiles())
	return m
})

// AnalyzeWith is Analyze with another standard library, for tests and tools
// that bring their own.
func AnalyzeWith(std, files []*File) (*Module, Diagnostics) {
	return analyze(nil, append(append([]*File(nil), std...), files...), nil)
}

// Base is a standard library analysed once, for analyses of other files
// to start from. Its declarations are shared by every module Analyze
// returns and must not be modified; the checker only writes to the
// declaration it checks, and a Base's are already checked.
type Base struct {
	files  []*File
	m      *Module
	diags  Diagnostics
	decls  map[*Decl]bool
	firsts map[string]map[string]*Decl // see checker.baseFirsts
}

// NewBase analyses a standard library on its own.
func NewBase(std []*File) *Base {
	std = append([]*File(nil), std...)
	m, diags := analyze(nil, std, nil)
	b := &Base{files: std, m: m, diags: diags, decls: map[*Decl]bool{}, firsts: map[string]map[string]*Decl{}}
	for _, d := range m.decls() {
		b.decls[d] = true
	}
	for _, k := range declKinds(m) {
		b.firsts[k.what] = firstByName(k.decls)
	}
	return b
}

// Analyze is AnalyzeWith for the base's standard library, which is not
// decoded or checked again: the result is the same.
func (b *Base) Analyze(files []*File) (*Module, Diagnostics) {
	return analyze(b, files, nil)
}

// analyze is Analyze over base (nil: files hold their own stdlib), whose
// mutations may name embedded's incidents and mutations (nil: none).
func analyze(base *Base, files []*File, embedded func() *Module) (*Module, Diagnostics) {
	var all []*File
	m := &Module{}
	var diags Diagnostics
	if base != nil {
		all = append(append(all, base.files...), files...)
		bm := base.m
		m = &Module{
			ServiceKinds: clip(bm.ServiceKinds), Systems: clip(bm.Systems), FaultKinds: clip(bm.FaultKinds),
			DistractorKinds: clip(bm.DistractorKinds), NoisePatterns: clip(bm.NoisePatterns), BenignChanges: clip(bm.BenignChanges), Tools: clip(bm.Tools),
			Rubrics: clip(bm.Rubrics), Incidents: clip(bm.Incidents), Suites: clip(bm.Suites),
			Mutations: clip(bm.Mutations), SuiteSpecs: clip(bm.SuiteSpecs),
		}
		diags = append(diags, base.diags...)
	} else {
		all = files
	}
	m.Files = all
	m.embedded = embedded
	byName := map[string]*File{}
	for _, f := range all {
		byName[f.Name] = f
	}
	// unparsed names the files with syntax errors: only those errors are
	// reported for them, since the checker's findings in a partial tree
	// are unreliable (an invalid expression evaluates to an unknown value).
	unparsed := map[string]bool{}
	var fresh Diagnostics
	parseAll(files)
	for _, f := range files {
		syn, ds, over := parseCached(f)
		if over.HasErrors() {
			// Not parsed: a file over a limit has no declarations.
			fresh = append(fresh, over...)
			unparsed[f.Name] = true
			continue
		}
		fresh = append(fresh, fromHCLDiags(ds)...)
		if syn == nil {
			continue
		}
		body, ok := syn.Body.(*hclsyntax.Body)
		if !ok {
			continue
		}
		d := &decoder{file: f}
		if ds.HasErrors() {
			// A syntax error leaves a partial tree; decode it so that the
			// healthy parts are indexed, but mark what came from this file.
			d.decodeFile(body, m)
			markFileBroken(m, f.Name)
			unparsed[f.Name] = true
			continue
		}
		d.decodeFile(body, m)
		fresh = append(fresh, d.diags...)
	}
	c := &checker{m: m, files: byName}
	if base != nil {
		c.checked, c.baseFirsts = base.decls, base.firsts
	}
	c.check()
	for _, d := range c.diags {
		if d.Subject == nil || !unparsed[d.Subject.Filename] {
			fresh = append(fresh, d)
		}
	}
	resyncPositions(fresh, func(name string) *File { return byName[name] })
	return m, append(diags, fresh...).Sort().CapPerFile(MaxDiagnosticsPerFile)
}

// clip copies a base's list so that appending to it never writes into
// the base's array.
func clip[T any](list []T) []T { return append([]T(nil), list...) }

// decls lists every top-level declaration of m.
func (m *Module) decls() []*Decl {
	var out []*Decl
	add := func(d *Decl) { out = append(out, d) }
	for _, x := range m.ServiceKinds {
		add(&x.Decl)
	}
	for _, x := range m.Systems {
		add(&x.Decl)
	}
	for _, x := range m.FaultKinds {
		add(&x.Decl)
	}
	for _, x := range m.DistractorKinds {
		add(&x.Decl)
	}
	for _, x := range m.NoisePatterns {
		add(&x.Decl)
	}
	for _, x := range m.BenignChanges {
		add(&x.Decl)
	}
	for _, x := range m.Tools {
		add(&x.Decl)
	}
	for _, x := range m.Rubrics {
		add(&x.Decl)
	}
	for _, x := range m.Incidents {
		add(&x.Decl)
	}
	for _, x := range m.Suites {
		add(&x.Decl)
	}
	for _, x := range m.Mutations {
		add(&x.Decl)
	}
	for _, x := range m.SuiteSpecs {
		add(&x.Decl)
	}
	return out
}

func markFileBroken(m *Module, name string) {
	mark := func(d *Decl) {
		if d.DefRange.Filename == name {
			d.Broken = true
		}
	}
	for _, x := range m.ServiceKinds {
		mark(&x.Decl)
	}
	for _, x := range m.Systems {
		mark(&x.Decl)
	}
	for _, x := range m.FaultKinds {
		mark(&x.Decl)
	}
	for _, x := range m.DistractorKinds {
		mark(&x.Decl)
	}
	for _, x := range m.NoisePatterns {
		mark(&x.Decl)
	}
	for _, x := range m.BenignChanges {
		mark(&x.Decl)
	}
	for _, x := range m.Tools {
		mark(&x.Decl)
	}
	for _, x := range m.Rubrics {
		mark(&x.Decl)
	}
	for _, x := range m.Incidents {
		mark(&x.Decl)
	}
}

// Parsing was a third of an analysis, and an editor analyses the same
// stdlib and unchanged files on every keystroke: syntax trees are cached
// by file name and content. Nothing downstream modifies a tree.
var (
	parsedMu    sync.Mutex
	parsedFiles = map[parseKey]parsed{}
	// parsedNames holds the name each content was last parsed under.
	parsedNames = map[[sha256.Size]byte]string{}
)

type parseKey struct {
	name string
	sum  [sha256.Size]byte
}

type parsed struct {
	file  *hcl.File
	diags hcl.Diagnostics
	// over holds the file's excesses over the front end's limits; a file
	// with any is not parsed.
	over Diagnostics
}

// maxParsedFiles bounds the cache; when full it starts over.
const maxParsedFiles = 512

func parseCached(f *File) (*hcl.File, hcl.Diagnostics, Diagnostics) {
	p, _ := parseCachedTokens(f)
	return p.file, p.diags, p.over
}

// parseCachedTokens is parseCached that also returns the tokens of f when
// it had to lex f (nil when the tree came from the cache or the file is
// over MaxFileBytes).
func parseCachedTokens(f *File) (parsed, hclsyntax.Tokens) {
	key := parseKey{f.Name, sha256.Sum256(f.Src)}
	parsedMu.Lock()
	p, ok := parsedFiles[key]
	parsedMu.Unlock()
	if ok {
		return p, nil
	}
	over, toks := measure(f.Name, f.Src)
	p = parsed{over: over}
	if !p.over.HasErrors() {
		p.file, p.diags = hclsyntax.ParseConfig(f.Src, f.Name, hcl.InitialPos)
	}
	parsedMu.Lock()
	if len(parsedFiles) >= maxParsedFiles {
		clear(parsedFiles)
		clear(parsedNames)
	}
	parsedFiles[key] = p
	parsedNames[key.sum] = key.name
	parsedMu.Unlock()
	return p, toks
}

// parsedTree is the syntax tree of src (nil for a file over the limits)
// for a caller that reads only its byte offsets: the cache's tree of the
// same bytes under any name (an editor analyses a document under its own
// name, then asks where a cursor is), else src parsed as name.
func parsedTree(name string, src []byte) *hcl.File {
	sum := sha256.Sum256(src)
	parsedMu.Lock()
	p, ok := parsedFiles[parseKey{parsedNames[sum], sum}]
	parsedMu.Unlock()
	if !ok {
		p, _ = parseCachedTokens(&File{Name: name, Src: src})
	}
	if p.over.HasErrors() {
		return nil
	}
	return p.file
}

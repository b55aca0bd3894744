package compiler

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/srezc/srezc/lang"
)

// Validation results of the embedded suite's incidents, computed ahead of
// time and shipped in the binary, so that a first `srezc validate` of the
// unmodified suite need not compile it (issue 18). An entry says that an
// incident compiled certified with no diagnostic, and is keyed by a digest
// of everything that compilation read (validationKey): the compiler's code
// (srezc.CompilerCode: the sources of every package compilation runs, the
// module's dependency versions, the toolchain and the architecture), the
// files holding no incident (the standard library among them), and the
// incident's own file, which must hold nothing else
// (lang.IncidentSources). A binary whose compiler differs in any byte
// finds no entry; an edited incident finds none for itself alone. Only
// srezc validate of the embedded suite consults the table; a PATH given
// on the command line is compiled in full. TestShippedValidations
// compiles every incident afresh and fails when the file differs from
// what it computes (SREZC_UPDATE=1 rewrites it).

// ValidatedFile is the table's name beside this package's sources.
const ValidatedFile = "shipped_validations.txt"

// validatedHeader starts the table; it changes when the key does.
const validatedHeader = "srezc shipped validations 1\n"

//go:embed shipped_validations.txt
var shippedValidations []byte

// shippedValidated is the set of the shipped table's incident keys.
var shippedValidated = sync.OnceValue(func() map[string]bool {
	keys := map[string]bool{}
	for key, name := range shippedLines() {
		if !strings.HasPrefix(name, wholeModule) {
			keys[key] = true
		}
	}
	return keys
})

// shippedModules maps the shipped table's module keys to their incident
// counts.
var shippedModules = sync.OnceValue(func() map[string]int {
	mods := map[string]int{}
	for key, name := range shippedLines() {
		if n, ok := strings.CutPrefix(name, wholeModule); ok {
			if count, err := strconv.Atoi(n); err == nil {
				mods[key] = count
			}
		}
	}
	return mods
})

// shippedLines yields the table's entries, key and name.
func shippedLines() iter.Seq2[string, string] {
	return func(yield func(string, string) bool) {
		rest, ok := bytes.CutPrefix(shippedValidations, []byte(validatedHeader))
		if !ok {
			return
		}
		for len(rest) > 0 {
			var line []byte
			line, rest, _ = bytes.Cut(rest, []byte("\n"))
			if key, name, ok := bytes.Cut(line, []byte("\t")); ok && !yield(string(key), string(name)) {
				return
			}
		}
	}
}

// wholeModule starts the name of an entry for a whole module, followed by
// its number of incidents.
const wholeModule = "* module of "

// ModuleValidated reports whether files, analysed and compiled by the code
// of the digest, are a module the shipped table holds whole: one whose
// analysis found no diagnostic and whose every incident compiled certified
// and clean; n is its number of incidents. The entry's key is a digest of
// the code, the standard library and every file, so srezc validate of the
// unmodified embedded default need not even parse it, and a change to any
// byte of any of them finds no entry and validates file by file.
func ModuleValidated(code [sha256.Size]byte, files []*lang.File) (n int, ok bool) {
	n, ok = shippedModules()[moduleKey(code, files)]
	return n, ok
}

func moduleKey(code [sha256.Size]byte, files []*lang.File) string {
	h := sha256.New()
	h.Write([]byte(validatedHeader + wholeModule))
	h.Write(code[:])
	for _, f := range lang.StdlibFiles() {
		writeFile(h, f)
	}
	for _, f := range files {
		writeFile(h, f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ShippedValidationBytes is the table this binary ships.
func ShippedValidationBytes() []byte { return shippedValidations }

// ValidationsForThisToolchain reports whether the shipped table was made
// by this binary's toolchain and architecture, which are part of every
// key: a table made by another cannot be found or checked here.
func ValidationsForThisToolchain() bool {
	rest, ok := bytes.CutPrefix(shippedValidations, []byte(validatedHeader))
	return ok && bytes.HasPrefix(rest, []byte(toolchainLine()))
}

func toolchainLine() string { return "toolchain " + runtime.Version() + " " + runtime.GOARCH + "\n" }

// validationKeys are the keys of m's incidents whose sources can be named
// file by file (lang.IncidentSources), under the compiler code digest.
func validationKeys(code [sha256.Size]byte, m *lang.Module) map[*lang.Incident]string {
	src := m.IncidentSources()
	h := sha256.New()
	h.Write([]byte(validatedHeader))
	h.Write(code[:])
	for _, f := range src.Shared {
		writeFile(h, f)
	}
	var shared [sha256.Size]byte
	h.Sum(shared[:0])
	keys := make(map[*lang.Incident]string, len(src.Own))
	for in, f := range src.Own {
		h := sha256.New()
		h.Write(shared[:])
		writeFile(h, f)
		keys[in] = hex.EncodeToString(h.Sum(nil))
	}
	return keys
}

func writeFile(h interface{ Write([]byte) (int, error) }, f *lang.File) {
	fmt.Fprintf(h, "%s\x00%d\x00", f.Name, len(f.Src))
	h.Write(f.Src)
}

// Checked is what compiling a module's incidents for srezc validate found.
type Checked struct {
	// Diags are the incidents' diagnostics, sorted.
	Diags lang.Diagnostics
	// Certified counts the tasks that compiled certified.
	Certified int
	// Compiled counts the incidents compiled, those not found in the
	// shipped table.
	Compiled int
}

// CheckWith compiles m's healthy incidents with opt for what srezc
// validate reports, which is what CompileWith returns of them. With a
// code digest (srezc.CompilerCode), an incident found in the shipped
// table under its key compiled certified and clean from these very bytes
// in the code of that digest, and is not compiled again; nil compiles
// every incident.
func CheckWith(m *lang.Module, opt Options, code *[sha256.Size]byte) Checked {
	var keys map[*lang.Incident]string
	if code != nil {
		keys = validationKeys(*code, m)
	}
	var out Checked
	var todo []*lang.Incident
	for _, in := range m.Incidents {
		if in.Broken {
			continue
		}
		if key, ok := keys[in]; ok && shippedValidated()[key] {
			out.Certified++
			continue
		}
		todo = append(todo, in)
	}
	out.Compiled = len(todo)
	for _, r := range compileEach(m, todo, opt) {
		out.Diags = append(out.Diags, r.diags...)
		if r.t != nil && r.t.Certified {
			out.Certified++
		}
	}
	out.Diags = out.Diags.Sort()
	return out
}

// ValidationTable compiles every incident of m that has a key with opt
// and encodes the keys of those that compiled certified and clean as a
// shipped table for the code digest: what TestShippedValidations writes.
// When the module's analysis found nothing (analysis) and every incident
// has its entry, files (what was analysed, the stdlib aside) get one entry
// as a whole. Lines are sorted, so equal results give equal bytes.
func ValidationTable(code [sha256.Size]byte, files []*lang.File, m *lang.Module, analysis lang.Diagnostics, opt Options) []byte {
	keys := validationKeys(code, m)
	var todo []*lang.Incident
	for _, in := range m.Incidents {
		if _, ok := keys[in]; ok && !in.Broken {
			todo = append(todo, in)
		}
	}
	var lines []string
	for i, r := range compileEach(m, todo, opt) {
		if r.t != nil && r.t.Certified && len(r.diags) == 0 {
			lines = append(lines, keys[todo[i]]+"\t"+todo[i].Name)
		}
	}
	if len(analysis) == 0 && len(lines) == len(m.Incidents) {
		lines = append(lines, moduleKey(code, files)+"\t"+wholeModule+strconv.Itoa(len(m.Incidents)))
	}
	slices.Sort(lines)
	return []byte(validatedHeader + toolchainLine() + strings.Join(lines, "\n") + "\n")
}

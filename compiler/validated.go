package compiler

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"fmt"
	"runtime"
	"slices"
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

// shippedValidated is the set of the shipped table's keys.
var shippedValidated = sync.OnceValue(func() map[string]bool {
	keys := map[string]bool{}
	rest, ok := bytes.CutPrefix(shippedValidations, []byte(validatedHeader))
	if !ok {
		return keys
	}
	for len(rest) > 0 {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		if key, _, ok := bytes.Cut(line, []byte("\t")); ok {
			keys[string(key)] = true
		}
	}
	return keys
})

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
// Lines are sorted, so equal results give equal bytes.
func ValidationTable(code [sha256.Size]byte, m *lang.Module, opt Options) []byte {
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
	slices.Sort(lines)
	return []byte(validatedHeader + toolchainLine() + strings.Join(lines, "\n") + "\n")
}

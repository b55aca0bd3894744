package compiler_test

import (
	"bytes"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/srezc/srezc"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

// shippedCertificates is a certification cache that finds the shipped
// certificates (checked by TestShippedCertificates): results are the
// same through it, only found sooner.
func shippedCertificates() *certify.Cache {
	c := certify.NewCache()
	c.UseShipped(srezc.CertifierCode())
	return c
}

// TestShippedValidations compiles every incident of the embedded suite
// and compares the clean, certified ones' keys with the table the binary
// ships (compiler/shipped_validations.txt, see validated.go): the table
// must be exactly what this code computes, under this code's digest, and
// must list every shipped incident. SREZC_UPDATE=1 rewrites the table.
func TestShippedValidations(t *testing.T) {
	// The embedded default as `srezc validate` reads it with no PATH
	// (scenarios and mutations): a file holding no incident is in every
	// incident's key, so a table made from the scenarios alone would never
	// be found.
	files := lang.EmbeddedFiles()
	m, diags := lang.Analyze(files)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	table := compiler.ValidationTable(srezc.CompilerCode(), files, m, diags, compiler.Options{Cache: shippedCertificates()})
	path := compiler.ValidatedFile
	if os.Getenv("SREZC_UPDATE") == "1" {
		rewriteShippedTable(t, path, table)
		return
	}
	if !compiler.ValidationsForThisToolchain() {
		t.Skipf("%s was made with another Go toolchain or architecture than %s %s: its keys cannot be found or checked here (SREZC_UPDATE=1 rewrites it)", path, runtime.Version(), runtime.GOARCH)
	}
	if shipped := compiler.ShippedValidationBytes(); !bytes.Equal(shipped, table) {
		t.Fatalf("%s holds %d entries; this code computes %d (the compiler, the stdlib or the suite changed, or compilation is not deterministic): regenerate with SREZC_UPDATE=1 go test ./compiler -run TestShippedValidations",
			path, bytes.Count(shipped, []byte("\n"))-2, bytes.Count(table, []byte("\n"))-2)
	}
	if n, want := bytes.Count(table, []byte("\n"))-3, len(m.Incidents); n != want {
		t.Errorf("the table lists %d incidents, want all %d of the suite", n, want)
	}
	if n, ok := compiler.ModuleValidated(srezc.CompilerCode(), files); !ok || n != len(m.Incidents) {
		t.Errorf("the table holds the embedded default whole: %v, of %d incidents; want it, of %d", ok, n, len(m.Incidents))
	}
}

// TestCheckWithShippedValidations: validating the embedded suite through
// the shipped table reports what compiling it does and compiles nothing;
// an incident whose file is edited is compiled again, alone, and what it
// reports is its own; an incident sharing its file with another
// declaration has no entry.
func TestCheckWithShippedValidations(t *testing.T) {
	if !compiler.ValidationsForThisToolchain() {
		t.Skip("the shipped table was made with another toolchain")
	}
	files := lang.EmbeddedFiles()
	m, _ := lang.Analyze(files)
	code := srezc.CompilerCode()
	full := compiler.CheckWith(m, compiler.Options{Cache: shippedCertificates()}, nil)
	fast := compiler.CheckWith(m, compiler.Options{Cache: shippedCertificates()}, &code)
	if full.Compiled != len(m.Incidents) || fast.Compiled != 0 {
		t.Errorf("compiled %d without the table and %d through it, want %d and 0", full.Compiled, fast.Compiled, len(m.Incidents))
	}
	if fast.Certified != full.Certified || len(fast.Diags) != len(full.Diags) || full.Certified != len(m.Incidents) {
		t.Errorf("through the table %d certified, %d diagnostics; compiled %d certified, %d diagnostics", fast.Certified, len(fast.Diags), full.Certified, len(full.Diags))
	}

	// The rest on a few incidents of the suite, one of them edited.
	i := slices.IndexFunc(files, func(f *lang.File) bool { return bytes.Contains(f.Src, []byte("expert = [")) })
	// The mutation files hold no incident, so they are in every key, as
	// they are when validate reads the embedded default.
	few := slices.Clone(files[max(i-1, 0):min(i+2, len(files))])
	for _, mf := range lang.MutationFiles() {
		if !slices.ContainsFunc(few, func(f *lang.File) bool { return f.Name == mf.Name }) {
			few = append(few, mf)
		}
	}
	at := slices.Index(few, files[i])
	m1, _ := lang.Analyze(few)

	// Another code digest finds nothing.
	other := code
	other[0] ^= 1
	if c := compiler.CheckWith(m1, compiler.Options{Cache: shippedCertificates()}, &other); c.Compiled != len(m1.Incidents) {
		t.Errorf("under another code digest %d incidents compiled, want all %d", c.Compiled, len(m1.Incidents))
	}
	if c := compiler.CheckWith(m1, compiler.Options{Cache: shippedCertificates()}, &code); c.Compiled != 0 {
		t.Errorf("%d of %d unedited incidents compiled through the table, want none", c.Compiled, len(m1.Incidents))
	}

	// Edit one incident's expert plan: it alone compiles, and reports
	// what it would without the table.
	f := *few[at]
	f.Src = bytes.Replace(f.Src, []byte("expert = ["), []byte("expert = [\n    \"restart_service(web_server)\",\n    \"restart_service(web_server)\","), 1)
	edited := slices.Clone(few)
	edited[at] = &f
	m2, _ := lang.Analyze(edited)
	c := compiler.CheckWith(m2, compiler.Options{Cache: shippedCertificates()}, &code)
	want := compiler.CheckWith(m2, compiler.Options{Cache: shippedCertificates()}, nil)
	if c.Compiled != 1 {
		t.Errorf("after editing %s, %d incidents compiled, want 1", f.Name, c.Compiled)
	}
	if c.Certified != want.Certified || diagText(c.Diags) != diagText(want.Diags) {
		t.Errorf("after editing %s: through the table %d certified, diagnostics\n%s\ncompiled: %d certified, diagnostics\n%s", f.Name, c.Certified, diagText(c.Diags), want.Certified, diagText(want.Diags))
	}

	// The whole module's entry is found only for every file as shipped,
	// under this code.
	if _, ok := compiler.ModuleValidated(code, files); !ok {
		t.Errorf("the embedded default is not held whole")
	}
	whole := slices.Clone(files)
	whole[slices.Index(files, few[at])] = edited[at]
	for what, fs := range map[string][]*lang.File{"an edited file": whole, "a few files": few, "a file missing": files[1:]} {
		if _, ok := compiler.ModuleValidated(code, fs); ok {
			t.Errorf("with %s, the whole module's entry was found", what)
		}
	}
	if _, ok := compiler.ModuleValidated(other, files); ok {
		t.Errorf("under another code digest, the whole module's entry was found")
	}

	// A second declaration in an incident's file takes it off the table.
	f = *few[at]
	f.Src = append(slices.Clone(f.Src), []byte("\nrubric \"extra\" {\n}\n")...)
	edited[at] = &f
	m3, _ := lang.Analyze(edited)
	if c := compiler.CheckWith(m3, compiler.Options{Cache: shippedCertificates()}, &code); c.Compiled != 1 {
		t.Errorf("with a rubric beside the incident in %s, %d incidents compiled, want 1", f.Name, c.Compiled)
	}
}

func diagText(ds lang.Diagnostics) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString(d.Error() + "\n")
	}
	return b.String()
}

package compiler_test

import (
	"testing"

	"github.com/srezc/srezc"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

// BenchmarkSuiteCompile compiles and certifies one shipped incident per
// iteration from the analysed module, with a fresh certification cache.
func BenchmarkSuiteCompile(b *testing.B) {
	m, _ := lang.Analyze(lang.ScenarioFiles())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		compiler.CompileIncident(m, m.Incidents[i%len(m.Incidents)], compiler.Options{Cache: certify.NewCache()})
	}
}

// BenchmarkSuiteCompileCached is the same with certification results
// cached by semantic hash, as an editor re-validating finds them: the
// cache is filled before the timer starts.
func BenchmarkSuiteCompileCached(b *testing.B) {
	m, _ := lang.Analyze(lang.ScenarioFiles())
	cache := certify.NewCache()
	for _, in := range m.Incidents {
		compiler.CompileIncident(m, in, compiler.Options{Cache: cache})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		compiler.CompileIncident(m, m.Incidents[i%len(m.Incidents)], compiler.Options{Cache: cache})
	}
}

// BenchmarkSuiteAnalyze parses and checks the stdlib and the shipped suite,
// the front-end half of srezc validate.
func BenchmarkSuiteAnalyze(b *testing.B) {
	files := lang.ScenarioFiles()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		lang.Analyze(files)
	}
}

// BenchmarkSuiteCompileNoCertify compiles without the Certify stage: what
// certification costs is the difference from BenchmarkSuiteCompile.
func BenchmarkSuiteCompileNoCertify(b *testing.B) {
	m, _ := lang.Analyze(lang.ScenarioFiles())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		compiler.CompileIncident(m, m.Incidents[i%len(m.Incidents)], compiler.Options{SkipCertify: true})
	}
}

// BenchmarkSuiteCompileShipped compiles the whole embedded suite from the
// analysed module, its certification results found in the table shipped
// in the binary (certify/shipped.go): the compile half of a cold srezc
// validate of the unmodified suite.
func BenchmarkSuiteCompileShipped(b *testing.B) {
	m, _ := lang.Analyze(lang.ScenarioFiles())
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cache := certify.NewCache()
		cache.UseShipped(srezc.CertifierCode())
		compiler.CompileWith(m, compiler.Options{Cache: cache})
		if n := cache.Fresh(); n != 0 {
			b.Fatalf("%d tasks certified afresh: the shipped table is stale (SREZC_UPDATE=1 go test ./compiler -run TestShippedCertificates)", n)
		}
	}
}

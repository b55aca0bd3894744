package cli_test

import (
	"io"
	"os"
	"strings"
	"testing"

	"github.com/srezc/srezc/cli"
)

// BenchmarkValidateSuite is srezc validate of the embedded suite in
// process, certification results and outputs kept on disk
// (SREZC_CACHE): "warm" finds the suite's output stored (an unchanged
// suite, run again), "certified" finds only the certification results
// (the suite's sources edited without changing what any task does, so every
// incident compiles again), "shipped" starts from an empty disk cache (a
// fresh machine: only what the binary ships, its incidents found in the
// validation table, compiler/validated.go), "compiled" is the same suite
// given as a PATH from an empty disk cache (every incident compiled, its
// certification found in the shipped certificates, certify/shipped.go:
// a fresh machine's validate without the validation table), "cold" finds
// nothing (SREZC_CACHE=off, which certifies every task afresh).
//
// Only "shipped" and "compiled" are a fresh process's work; the process's
// one-time costs (the stdlib's analysis, parsing) are paid in the first
// iteration alone, so time a fresh process as the README says.
func BenchmarkValidateSuite(b *testing.B) {
	run := func(b *testing.B) {
		if code := cli.Main([]string{"validate"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
			b.Fatalf("validate exited %d", code)
		}
	}
	b.Run("warm", func(b *testing.B) {
		b.Setenv("SREZC_CACHE", b.TempDir())
		run(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			run(b)
		}
	})
	b.Run("certified", func(b *testing.B) {
		cache := b.TempDir()
		b.Setenv("SREZC_CACHE", cache)
		run(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			for _, p := range outputEntries(b, cache) {
				os.Remove(p)
			}
			b.StartTimer()
			run(b)
		}
	})
	b.Run("shipped", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			b.Setenv("SREZC_CACHE", b.TempDir())
			b.StartTimer()
			run(b)
		}
	})
	b.Run("compiled", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			b.Setenv("SREZC_CACHE", b.TempDir())
			b.StartTimer()
			if code := cli.Main([]string{"validate", "../scenarios"}, strings.NewReader(""), io.Discard, io.Discard); code != 0 {
				b.Fatalf("validate exited %d", code)
			}
		}
	})
	b.Run("cold", func(b *testing.B) {
		b.Setenv("SREZC_CACHE", "off")
		for i := 0; i < b.N; i++ {
			run(b)
		}
	})
}

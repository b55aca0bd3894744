package engine_test

import (
	"testing"

	"github.com/srezc/srezc/engine"
)

// BenchmarkSuiteNewEpisode allocates an episode of each shipped incident in
// turn and resets it once: what a server pays to start an episode.
func BenchmarkSuiteNewEpisode(b *testing.B) {
	tasks := suiteTasks(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ep := engine.NewEpisode(tasks[i%len(tasks)])
		ep.Reset(uint64(i))
	}
}

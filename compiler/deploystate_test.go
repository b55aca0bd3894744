package compiler

import (
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// TestDeployStateAgrees: the runtime tells a deploy from an audited
// state's change by the state's name, so the language's and the
// runtime's names of the deployed version must be one.
func TestDeployStateAgrees(t *testing.T) {
	if lang.DeployState != engine.DeployState {
		t.Fatalf("lang.DeployState %q, engine.DeployState %q", lang.DeployState, engine.DeployState)
	}
}

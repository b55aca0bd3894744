package compiler

import (
	"encoding/hex"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// The Certify and CertifyFixes stages hand the build, as a
// certify.Incident (worlds.go), to package certify and record what it
// finds.

// certify is the Certify stage.
func (b *build) certify() {
	if b.opt.SkipCertify {
		return
	}
	if b.opt.ExpertFromPlan && len(b.t.Expert) == 0 {
		// A mutation variant: certified once, its expert plan derived, so
		// its body is known only afterwards; nothing to look up.
		r := certify.Afresh(b, true)
		r.Apply(b.t)
		b.findings = r.Findings()
		if b.alerting >= 0 {
			// Its difficulty is estimated, from the alert derived above.
			b.t.Difficulty = difficultyOf(b.t, b.alerting)
		}
		body := b.bodyHash()
		b.t.Hash, b.t.Behaviour = engine.SealHash(body, b.t), hex.EncodeToString(body[:])
		return
	}
	body := b.bodyHash()
	r := certify.Cached(b, b.opt.Cache, body)
	b.findings = r.Findings()
	b.t.Behaviour = hex.EncodeToString(body[:])
}

// certifyFixes is the CertifyFixes stage: it appends a finding per
// fault whose fixed_when disagrees with the world to the task's
// certification failures, located.
func (b *build) certifyFixes() {
	if b.opt.SkipCertify || len(b.t.Faults) != len(b.in.Faults) {
		return
	}
	findings := certify.Fixes(b, b.opt.Cache)
	if len(findings) == 0 {
		return
	}
	t := b.t
	if b.located == nil {
		b.located = map[string]lang.Range{}
	}
	for _, f := range findings {
		t.Uncertified = append(t.Uncertified, f.Detail)
		b.located[f.Detail] = f.At
	}
	t.Certified = false
	// Only certification results changed, which the body leaves out.
	t.Hash = engine.SealHash(b.bodyHash(), t)
}

// Prepare compiles an incident up to certification, without certifying
// it, and returns it as certification sees it (certify.Explain takes it;
// so do certification's tests and benchmarks).
func Prepare(m *lang.Module, in *lang.Incident) (certify.Incident, lang.Diagnostics) {
	b := newBuild(m, in)
	b.opt.SkipCertify = true
	for _, st := range Stages {
		st.Run(b)
		if len(b.diags) > 0 {
			return nil, b.diags
		}
	}
	return b, nil
}

package runtime

// normalize lowers text and turns every run of non-alphanumeric bytes into
// one space, with a space at each end, so phrases match on word boundaries
// ("db" does not match inside "feedback", as it does in the reference).
func (e *Episode) normalize(s string) []byte {
	b := append(e.norm[:0], ' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			b = append(b, c+('a'-'A'))
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c >= 0x80:
			b = append(b, c)
		default:
			if b[len(b)-1] != ' ' {
				b = append(b, ' ')
			}
		}
	}
	if b[len(b)-1] != ' ' {
		b = append(b, ' ')
	}
	e.norm = b
	e.wordAt = e.wordAt[:0]
	for i := 1; i < len(b); i++ {
		if b[i-1] == ' ' && b[i] != ' ' {
			e.wordAt = append(e.wordAt, int32(i))
		}
	}
	return b
}

// hasPhrase reports whether the normalised phrase occurs in hay as whole
// words; words holds the offsets where hay's words start.
func hasPhrase(hay []byte, words []int32, phrase string) bool {
	n := len(phrase)
	if n == 0 {
		return false
	}
	for _, w := range words {
		i := int(w)
		if hay[i] == phrase[0] && i+n < len(hay) && hay[i+n] == ' ' && string(hay[i:i+n]) == phrase {
			return true
		}
	}
	return false
}

// matchPhrases marks, at every word of hay, the longest phrase of the index
// starting there, blanking it when mask is set.
func (e *Episode) matchPhrases(hay []byte, idx phraseIndex, base int, mask bool) {
	for _, w := range e.wordAt {
		i := int(w)
		if hay[i] == ' ' {
			continue // masked
		}
		end := i
		for end < len(hay) && hay[end] != ' ' {
			end++
		}
		for _, r := range idx[string(hay[i:end])] {
			n := len(r.phrase)
			if i+n < len(hay) && hay[i+n] == ' ' && string(hay[i:i+n]) == r.phrase {
				e.mention[base+int(r.term)] = true
				if mask {
					for k := i; k < i+n; k++ {
						hay[k] = ' '
					}
				}
				break
			}
		}
	}
}

// diagnose matches a root-cause text against the closed vocabulary: every
// fault's component and mechanism must be named (localisation and
// characterisation), and nothing else may be (scope), so a diagnosis stuffed
// with every word fails.
func (e *Episode) diagnose(text string) bool {
	t := e.t
	hay := e.normalize(text)
	nc := len(t.Components)
	// Mechanisms first, masking what they matched, so a mechanism phrase
	// that names a part ("cache host") does not also blame that component.
	clear(e.mention)
	e.matchPhrases(hay, e.prep.mechanisms, nc, true)
	e.matchPhrases(hay, e.prep.components, 0, false)
	ok := len(t.Faults) > 0
	for i := range t.Faults {
		f := &t.Faults[i]
		if int(f.Service) >= nc || !e.mention[f.Service] || !e.mention[nc+int(f.Mechanism)] {
			ok = false
		}
	}
	for i := 0; i < nc; i++ {
		if !e.mention[i] {
			continue
		}
		if e.isDistractor(int16(i)) {
			e.rec.DistractorFailures++
			e.comp.Penalties += t.Rubric.DistractorAction
		}
		if !e.isFaultService(int16(i)) {
			ok = false
		}
	}
	for j := range t.Mechanisms {
		if !e.mention[nc+j] {
			continue
		}
		blamed := false
		for i := range t.Faults {
			if int(t.Faults[i].Mechanism) == j {
				blamed = true
			}
		}
		if !blamed {
			ok = false
		}
	}
	return ok
}

// namesFix reports whether the fix text names a canonical remedy of every
// fault: "restart" for a restart, the config key's words for an update.
func (e *Episode) namesFix(text string) bool {
	t := e.t
	if len(t.Faults) == 0 {
		return false
	}
	hay := e.normalize(text)
	for i := range t.Faults {
		named := false
		for _, r := range t.Faults[i].Remedies {
			switch r.Effect {
			case EffectRestart:
				named = named || hasPhrase(hay, e.wordAt, "restart") || hasPhrase(hay, e.wordAt, "restarted") || hasPhrase(hay, e.wordAt, "restarting")
			case EffectUpdate:
				named = named || hasKeyWords(hay, t.Slots[r.Slot].Name)
			}
		}
		if !named {
			return false
		}
	}
	return true
}

// hasKeyWords matches a config key such as pool_size as the words "pool size".
func hasKeyWords(hay []byte, key string) bool {
	n := len(key)
	for i := 1; i+n < len(hay); i++ {
		if hay[i-1] != ' ' || hay[i+n] != ' ' {
			continue
		}
		match := true
		for j := 0; j < n; j++ {
			c := key[j]
			if c == '_' || c == '-' || c == '.' {
				c = ' '
			}
			if hay[i+j] != c {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

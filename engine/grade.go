package engine

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

// DiagnoseAnswer reads a root-cause answer with the episode's reader, as
// resolve_incident does, without touching the episode's grade.
func (e *Episode) DiagnoseAnswer(text string) bool {
	return e.reader.read(e.t, e.prep.lexiconOf(e.t), text, false).OK
}

// diagnose grades a root-cause answer with the diagnosis reader
// (diagnose.go): every fault diagnosed on its own service, nothing blamed
// beyond the faulty services. Blaming a distractor's service is a
// distractor failure.
func (e *Episode) diagnose(text string) bool {
	v := e.reader.read(e.t, e.prep.lexiconOf(e.t), text, false)
	for _, svc := range v.Blamed {
		if svc >= 0 && e.isDistractor(svc) && !e.isFaultService(svc) {
			e.rec.DistractorFailures++
			e.comp.Penalties += e.t.Rubric.DistractorAction
		}
	}
	return v.OK
}

// namesFix reports whether the fix text names a canonical remedy of every
// fault: "restart" for a restart, the config key's words for an update,
// "rolled back" (or "reverted") for a rollback.
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
			case EffectRollback:
				named = named || hasPhrase(hay, e.wordAt, "rolled back") || hasPhrase(hay, e.wordAt, "rollback") || hasPhrase(hay, e.wordAt, "roll back") || hasPhrase(hay, e.wordAt, "reverted") || hasPhrase(hay, e.wordAt, "revert")
			case EffectOperate:
				op := &t.Operations[r.Operation]
				named = named || hasKeyWords(hay, op.Name)
				for _, p := range op.Aka {
					named = named || hasPhrase(hay, e.wordAt, p)
				}
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

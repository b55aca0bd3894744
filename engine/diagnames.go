package engine

import "slices"

// Settings named by a phrase around another name: "a ceiling on how many
// clients" is the client ceiling, "the cache at an old name" the caller's
// cache host. The settings are the stdlib's; only the English is here.

// limitOnTopics reads "a ceiling on how many clients it lets in", "the cap
// the web tier puts on the number of requests" as "client ceiling",
// "request cap": a limit noun, then within a few words "how many X" or
// "number of X", names the limit on X where the stdlib has one by that
// name.
func (r *reader) limitOnTopics(lx *diagLexicon) {
	for i := range r.toks {
		if r.toks[i].punct != 0 || r.tokInfo[i].covered || !slices.Contains(limitNouns, r.word(i)) {
			continue
		}
		for j := i + 1; j < len(r.toks) && j <= i+6 && r.toks[j].punct == 0; j++ {
			w, next := r.word(j), r.word(j+1)
			if !(w == "how" && next == "many" || w == "number" && next == "of") || j+2 >= len(r.toks) || r.toks[j+2].punct != 0 {
				continue
			}
			x := r.norm[r.toks[j+2].start:r.toks[j+2].end]
			id, ok := r.limitTopic(lx, x, r.word(i))
			if !ok && len(x) > 1 && x[len(x)-1] == 's' {
				id, ok = r.limitTopic(lx, x[:len(x)-1], r.word(i))
			}
			if ok {
				// "how many" names what is limited here; it says no state.
				r.items = slices.DeleteFunc(r.items, func(x item) bool {
					return x.kind == lexState && int(x.tok) >= j && int(x.tok) <= j+2
				})
				r.insertTopic(i, id)
			}
			break
		}
	}
}

// limitTopic is the topic named "x noun" ("client ceiling"), if any.
func (r *reader) limitTopic(lx *diagLexicon, x []byte, noun string) (int32, bool) {
	r.phrase = append(append(append(r.phrase[:0], x...), ' '), noun...)
	id, ok := lx.topicID[string(r.phrase)]
	return id, ok
}

// hostOfTopics reads "looking for the cache at an old name", "the cache
// under a name that isn't in DNS", "the cache at cache-old.internal" as the
// cache's host setting, the caller's: a service, then within a few linking
// words a host noun or a host name, names the setting "SERVICE host" where
// the stdlib has one by that name.
func (r *reader) hostOfTopics(lx *diagLexicon) {
	for k := 0; k < len(r.items); k++ {
		svc := r.items[k]
		if svc.kind != lexService {
			continue
		}
		first := int(svc.tok) + svc.end - svc.pos + 1
		for i := first; i < len(r.toks) && i <= first+3 && r.toks[i].punct == 0 && !r.tokInfo[i].covered; i++ {
			w := r.word(i)
			// "the cache at cache-old.internal": a host name names it too.
			if !hostNouns[w] && r.literalAt(i) != '.' {
				if hostLinks[w] {
					continue
				}
				break
			}
			r.phrase = r.phrase[:0]
			for j := int(svc.tok); j < first; j++ {
				r.phrase = append(append(r.phrase, r.norm[r.toks[j].start:r.toks[j].end]...), ' ')
			}
			r.phrase = append(r.phrase, "host"...)
			if id, ok := lx.topicID[string(r.phrase)]; ok {
				r.insertTopic(i, id)
			}
			break
		}
	}
}

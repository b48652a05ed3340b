package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// replayNormaliser replaces in an answer, as record formats it, what
// legitimately differs from one run to the next, and nothing else. Each
// rule says why its part varies; the clock, which the answers' decayed
// counts would follow, is not among them: the server is pinned to
// replayClock.
type replayNormaliser struct {
	ids     map[string]string // a tracking id the server made → "<new-id-N>"
	seqBase uint64            // the group's first "seq" other than 0; 0 until one comes
}

var (
	// The Date header is the wall clock when fasthttp answered.
	dateHeaderRE = regexp.MustCompile(`(?m)^Date: .*\n`)
	// A visitor the server meets without a trackingUserId or retail_id
	// cookie gets a new id, 128 random bits in hex (httpapi's
	// newTrackingID), set in the retail_id cookie: it is named
	// <new-id-N>, N counting the ids a group's answers made in order, and
	// the same id is so named wherever it appears (the collect answer's
	// trackingUserId), so the record still shows which id is which. A
	// cookie value that is not such an id is left as it is.
	newIDCookieRE = regexp.MustCompile(`(?m)^Set-Cookie: retail_id=([0-9a-f]{32});`)
	// An answer's "seq" is the change log's entry that holds its write
	// or events. A page's first load queues its page view without
	// waiting (docs/decisions.md, Page views), and views queued together
	// share one entry or not as the disk decides, so the entries before a
	// group's first write differ from run to run. Within a group, where
	// no write comes after an event queued without waiting, the numbers
	// advance by what each write appends: each is shown as the group's
	// first, <seq>, plus its distance from it. Only the top-level member
	// of a body is so shown (two spaces in: the indented body); 0, no
	// entry, is kept.
	seqRE = regexp.MustCompile(`(?m)^  "seq": ([1-9][0-9]*)(,?)$`)
)

// normalise applies the rules to one answer: its head, a blank line and
// its body, as record formats them.
func (n *replayNormaliser) normalise(answer string) string {
	head, body, _ := strings.Cut(answer, "\n\n")
	head = dateHeaderRE.ReplaceAllString(head+"\n", "")
	answer = head + "\n" + body
	for _, m := range newIDCookieRE.FindAllStringSubmatch(answer, -1) {
		id := m[1]
		if _, ok := n.ids[id]; !ok {
			if n.ids == nil {
				n.ids = map[string]string{}
			}
			n.ids[id] = fmt.Sprintf("<new-id-%d>", len(n.ids)+1)
		}
	}
	for id, name := range n.ids {
		answer = strings.ReplaceAll(answer, id, name)
	}
	return seqRE.ReplaceAllStringFunc(answer, func(m string) string {
		sub := seqRE.FindStringSubmatch(m)
		seq, _ := strconv.ParseUint(sub[1], 10, 64)
		if n.seqBase == 0 {
			n.seqBase = seq
		}
		shown := "<seq>"
		switch {
		case seq > n.seqBase:
			shown = fmt.Sprintf("<seq+%d>", seq-n.seqBase)
		case seq < n.seqBase:
			shown = fmt.Sprintf("<seq-%d>", n.seqBase-seq)
		}
		return `  "seq": ` + shown + sub[2]
	})
}

package main

import (
	"fmt"
	"regexp"
	"strings"
)

// replayNormaliser replaces in an answer, as record formats it, what
// legitimately differs from one run to the next, and nothing else. Each
// rule says why its part varies; the clock, which the answers' decayed
// counts would follow, is not among them: the server is pinned to
// replayClock.
type replayNormaliser struct {
	ids map[string]string // a tracking id the server made → "<new-id-N>"
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
	return answer
}

package main

import (
	"regexp"
	"strings"
)

// replayNormaliser replaces in an answer, as record formats it, what
// legitimately differs from one run to the next, and nothing else. Each
// rule says why its part varies; the clock, which the answers' decayed
// counts would follow, is not among them: the server is pinned to
// replayClock.
type replayNormaliser struct{}

// The Date header is the wall clock when fasthttp answered.
var dateHeaderRE = regexp.MustCompile(`(?m)^Date: .*\n`)

// normalise applies the rules to one answer: its head, a blank line and
// its body, as record formats them.
func (n *replayNormaliser) normalise(answer string) string {
	head, body, _ := strings.Cut(answer, "\n\n")
	head = dateHeaderRE.ReplaceAllString(head+"\n", "")
	return head + "\n" + body
}

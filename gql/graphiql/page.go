package graphiql

import (
	"bytes"
	"html/template"
)

// policy is the page's Content-Security-Policy: scripts, style sheets
// and requests to its own origin only, no inline script, no eval; fonts
// from data: URLs (GraphiQL's style sheet embeds them) and the data:
// favicon. The one inline style allowed, by its hash, is the style
// element GraphiQL's dialogs add to lock the page's scroll
// (react-remove-scroll, with page.css's zero body margins and no scroll
// bar). A GraphiQL whose dialogs add another text fails the browser test
// with a CSP error naming the new hash.
const policy = "default-src 'none'; script-src 'self'; " +
	"style-src 'self' 'sha256-Y/huXlwoYkVyQlxwSVcCi1RCDGDCSVBzDt0hYP9qlTc='; " +
	"font-src data:; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'"

// CSP is the Content-Security-Policy header to serve Page with. The page
// also carries the policy in a meta element, which cannot hold
// frame-ancestors: the header adds it, so no other site frames the page.
const CSP = policy + "; frame-ancestors 'none'"

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.Policy}}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Aisle GraphiQL</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{.Assets}}/graphiql.min.css">
<link rel="stylesheet" href="{{.Assets}}/page.css">
<script src="{{.Assets}}/react.production.min.js" defer></script>
<script src="{{.Assets}}/react-dom.production.min.js" defer></script>
<script src="{{.Assets}}/graphiql.min.js" defer></script>
<script src="{{.Assets}}/page.js" defer></script>
</head>
<body>
<div id="graphiql" data-url="{{.Endpoint}}">Loading GraphiQL…</div>
</body>
</html>
`))

// Page is the GraphiQL page for the endpoint at path (e.g. "/graphql");
// assets are linked under path+"/assets/". Serve it as text/html;
// charset=utf-8 with the header Content-Security-Policy: CSP. The path is
// escaped where it appears; the page's URL query parameter apiKey is
// sent as ?apiKey= of the page's requests to the endpoint, and its
// referrer policy keeps that URL from other sites.
func Page(endpoint string) []byte {
	var b bytes.Buffer
	err := page.Execute(&b, struct {
		Policy, Assets, Endpoint string
	}{policy, endpoint + "/assets", endpoint})
	if err != nil {
		panic(err) // the template and its data are fixed: cannot fail
	}
	return b.Bytes()
}

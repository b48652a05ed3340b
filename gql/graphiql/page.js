// The GraphiQL page of Aisle's GraphQL admin. The endpoint is the
// data-url attribute of #graphiql; the API key is the apiKey query
// parameter of the page's own URL, passed on as ?apiKey= of every POST.
// Headers set in GraphiQL's headers editor are sent too, and never
// stored (shouldPersistHeaders is off).
(function () {
  "use strict";
  var root = document.getElementById("graphiql");
  var endpoint = new URL(root.dataset.url, window.location.href);
  var key = new URLSearchParams(window.location.search).get("apiKey");
  if (key) {
    endpoint.searchParams.set("apiKey", key);
  }

  // fetcher POSTs the operation as application/json and answers the
  // response's JSON; a body that is not JSON becomes a GraphQL error
  // naming the HTTP status, for GraphiQL to show.
  async function fetcher(params, opts) {
    var headers = Object.assign(
      { "Content-Type": "application/json", Accept: "application/json" },
      opts && opts.headers
    );
    var res = await fetch(endpoint.href, {
      method: "POST",
      headers: headers,
      body: JSON.stringify(params),
      credentials: "same-origin",
    });
    var text = await res.text();
    try {
      return JSON.parse(text);
    } catch (e) {
      return { errors: [{ message: "HTTP " + res.status + ": " + text }] };
    }
  }

  root.textContent = "";
  ReactDOM.createRoot(root).render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      isHeadersEditorEnabled: true,
      shouldPersistHeaders: false,
    })
  );
})();

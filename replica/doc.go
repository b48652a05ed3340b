// Package replica makes a node of an Aisle cluster: it joins the write
// side (package live) to the replicated logs of package cluster.
//
// A cluster has one log for the server (the configuration, API keys)
// and one per website (its products and content), each a JetStream
// stream. Each log has one writer at a time, the node holding its lease
// (cluster.Leases): the Replicator is that node's live.Publisher, and
// appends each change with the log's last position as the expected one,
// so two writers never interleave, and the change is applied here once
// the log has it. Every node follows every log and applies the entries
// it did not write with live.Writer.ApplyLogged, recording each log's
// position in the store with the entry (store.Position): a restart, or a
// crash, resumes after it.
//
// A node takes the server's lease when no one holds it, and the
// website leases no one holds while it holds the server's, so that one
// node usually writes every log (a console's request may change a
// configuration and a catalog); it renews those it holds. A lease it
// took is writable once the node has applied the log's last entry. A writer that stops renewing loses its leases after their TTL,
// and another node takes them over.
//
// Status reports each log's applied and last positions and its writer,
// for /healthz, /readyz and the metrics. docs/scaling.md is the design.
package replica

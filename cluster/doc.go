// Package cluster carries Aisle's change log past one machine on NATS
// JetStream: an embedded NATS server (Node), so copies of the one binary
// form a cluster with no other software, and a website's change log as a
// JetStream stream (Log) that one writer appends to, checked by the
// stream's last sequence, and replicas follow.
//
// It knows NATS and the log's sequence numbers, not what an entry holds:
// entries are bytes the write side encodes and applies (package store's
// entries, package live's applier). Without a cluster (no --nats flag)
// nothing here runs.
package cluster

// Package live is Aisle's write side: it changes what the engine serves
// and keeps every change in the store. A Writer takes the admin API's
// writes (products whole or partial, deletes, content items, the
// configuration), each one synced store entry, and swaps in the
// website's next generation, so a write is searchable when it is
// answered; a background saver saves the product indexes writes change.
// Open, OpenEach and Rebuild make a website's generation from a data
// directory (its saved index and the log after it, or a rebuild);
// Import and ImportEvents load a feed or a behaviour log into one; a
// Collector logs visitors' events with a group commit; BehaviourStore
// and Snapshots keep the behaviour's snapshots and compact the log they
// cover.
//
// Package engine is the read side it feeds, and never calls it: live
// asks engine to index (IndexStoredProducts, IndexKeeping, IndexContent,
// ProductDoc, ContentDoc), to make generations (Assemble, ProductsOf,
// Generation.WithProducts and WithContent), to check a configuration
// (CheckWebsite) and to serve them (Engine.Swap, Engine.Replace).
// docs/live-engine.md is the write side's design.
package live

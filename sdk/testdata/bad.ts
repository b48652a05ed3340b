// Misuses the SDK: TestTypeScript checks that tsc refuses it, so the
// declarations are not so loose that anything passes.
/// <reference path="../aisle.d.ts" />
Aisle.search.search("shop", "drill", { format: "XML", engine_options: { product: { current_count: "ten" } } });
Aisle.track.click("A100", { source: "nowhere" });
const n: number = Aisle.user.trackingId();

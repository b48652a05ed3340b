package bench

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/aisle-search/aisle/datasets"
)

// TestEvalInstacartHandBuilt runs the hit-rate evaluation on six orders
// whose answers are worked out by hand (two folds: users 1 and 3 in the
// first, user 2 in the second; order 6 has no user and is always
// replayed):
//
//   - user 1 holds out order 2 {1,2}: bought together with 1 is 2 (orders
//     1, 4 and 6), a hit; TOP without 1 has 2, a hit; their earlier order
//     {1,2} is a RECENTLY_BOUGHT hit, and TOP's too.
//   - user 3 holds out order 5 {5,1}: 5 was never bought, so BOUGHT_TOGETHER
//     has nothing (a miss, and TOP fills in a hit); TOP has 1, a hit; no
//     earlier order, so no RECENTLY_BOUGHT case.
//   - user 2 holds out order 4 {1,2}: bought together with 1 are 2 and 5,
//     a hit; TOP a hit; their earlier order {3,4} misses, TOP hits.
func TestEvalInstacartHandBuilt(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "instacart")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"aisles.csv":      "\"aisle_id\",\"aisle\"\n1,\"fresh fruits\"\n",
		"departments.csv": "\"department_id\",\"department\"\n1,\"produce\"\n",
		"products.csv":    "\"product_id\",\"product_name\",\"aisle_id\",\"department_id\"\n1,\"Banana\",1,1\n2,\"Apple\",1,1\n3,\"Lime\",1,1\n4,\"Lemon\",1,1\n5,\"Kiwi\",1,1\n",
		"orders.csv": "\"order_id\",\"user_id\",\"eval_set\",\"order_number\",\"order_dow\",\"order_hour_of_day\",\"days_since_prior_order\"\n" +
			"1,1,\"prior\",1,0,\"10\",\n2,1,\"prior\",2,0,\"10\",7\n3,2,\"prior\",1,0,\"10\",\n4,2,\"prior\",2,0,\"10\",7\n5,3,\"prior\",1,0,\"10\",\n",
		"order_products__prior.csv": "\"order_id\",\"product_id\",\"add_to_cart_order\",\"reordered\"\n" +
			"1,1,1,0\n1,2,2,0\n2,2,2,1\n2,1,1,1\n3,3,1,0\n3,4,2,0\n4,1,1,0\n4,2,2,0\n5,5,1,0\n5,1,2,0\n6,1,1,0\n6,2,2,0\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hr, err := EvalInstacart(filepath.Dir(dir), 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	want := HitRates{K: 10, Folds: 2, Products: 5, Orders: 6, TogetherOrders: 3, BoughtTogether: 2.0 / 3, TogetherTop: 1, TogetherThenTop: 1,
		RecentOrders: 2, RecentlyBought: 0.5, RecentTop: 1}
	if hr != want {
		t.Fatalf("hit rates\n got %+v\nwant %+v", hr, want)
	}
	if _, err := EvalInstacart(filepath.Dir(dir), 10, 1); err == nil {
		t.Fatal("one fold accepted")
	}
	if _, err := EvalInstacart(t.TempDir(), 10, 2); err == nil {
		t.Fatal("a folder without the files accepted")
	}
}

// TestInstacartHitRates measures the real baskets, as aisle eval does.
// Repurchase is the strong signal in groceries.
func TestInstacartHitRates(t *testing.T) {
	data := datasets.SkipOrDir(t)
	hr, err := EvalInstacart(data, 10, 10)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", hr)
	if hr.TogetherOrders < 2500 || hr.RecentOrders < 50 {
		t.Fatalf("%d and %d held-out orders, want about 2,800 and 58", hr.TogetherOrders, hr.RecentOrders)
	}
	if hr.RecentlyBought <= hr.RecentTop {
		t.Errorf("RECENTLY_BOUGHT %.3f, not above TOP %.3f", hr.RecentlyBought, hr.RecentTop)
	}
	if hr.BoughtTogether < 0.25 {
		t.Errorf("BOUGHT_TOGETHER %.3f, below the 0.25 floor", hr.BoughtTogether)
	}
}

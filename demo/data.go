package demo

// This file is the demo shop's vocabulary: departments, their categories
// and leaf subcategories with realistic prices and weights, the brands that
// sell in each department, colours, materials and the phrases descriptions
// are built from. Everything here is fixed data; only the choices made from
// it depend on the seed.

// sizeKind decides which "size" values a leaf's products carry.
type sizeKind uint8

const (
	sizeNone    sizeKind = iota // no size attribute
	sizeApparel                 // XS … XXL
	sizeShoes                   // EU 36 … 46
	sizeSML                     // Small / Medium / Large
	sizeBed                     // Twin … King
)

var sizeValues = [...][]string{
	sizeNone:    nil,
	sizeApparel: {"XS", "S", "M", "L", "XL", "XXL"},
	sizeShoes:   {"36", "37", "38", "39", "40", "41", "42", "43", "44", "45", "46"},
	sizeSML:     {"Small", "Medium", "Large"},
	sizeBed:     {"Twin", "Full", "Queen", "King"},
}

// leafSpec is one subcategory: its hierarchy label, the noun its product
// titles use, the synonyms that become keywords, and a median price (USD)
// and weight (kg) the generator spreads log-normally.
type leafSpec struct {
	label  string
	noun   string
	syn    string
	price  float64
	weight float64
	size   sizeKind
}

// catSpec is a category with the materials and features its products
// are described with.
type catSpec struct {
	name      string
	materials []string
	features  []string
	leaves    []leafSpec
}

type deptSpec struct {
	name       string
	weight     float64 // share of the catalog, relative
	related    int     // department whose brands also sell here
	adjectives []string
	uses       []string
	suffixes   []string
	brands     []string // most popular first
	cats       []catSpec
}

// colours are the "color" values; weights make neutrals commoner.
var colours = []string{
	"Black", "White", "Grey", "Navy", "Blue", "Red", "Green", "Olive", "Beige", "Brown",
	"Silver", "Gold", "Pink", "Yellow", "Orange", "Purple", "Teal", "Charcoal", "Cream", "Burgundy",
}

var colourWeights = []float64{
	14, 12, 10, 6, 6, 4, 4, 3, 5, 5,
	5, 2, 3, 2, 2, 2, 2, 4, 3, 2,
}

var tagNames = struct{ eco, bestseller, new, gift, limited, online string }{
	"eco", "bestseller", "new", "gift-idea", "limited-edition", "online-exclusive",
}

var deptSpecs = []deptSpec{
	{
		name: "Tools", weight: 1.1, related: 2,
		adjectives: []string{"Heavy-Duty", "Professional", "Compact", "Lightweight", "Precision", "Ergonomic", "Industrial", "Rugged"},
		uses:       []string{"weekend DIY projects", "professional job sites", "home renovations", "everyday repairs", "the garage workshop"},
		suffixes:   []string{"18V", "20V Max", "Kit", "with Case", "Pro Series", "XR"},
		brands: []string{"Voltmax", "Bergström", "Ironclad Works", "Hartwell", "Stahlmann", "Tørnqvist", "Grizzly Forge", "Redline Tools",
			"Axion", "Brückner", "Torqueline", "Carbide & Co", "Norrköp", "Durabuilt", "Hammersmith Tool Co", "Pionex",
			"Keystone Tools", "Rivetti", "Oakridge Supply", "Bolt & Bevel"},
		cats: []catSpec{
			{"Power Tools",
				[]string{"Aluminium", "Magnesium", "Steel", "Glass-Filled Nylon"},
				[]string{"a brushless motor", "an LED work light", "a variable speed trigger", "a battery fuel gauge", "a belt clip", "a keyless chuck", "an impact-resistant housing"},
				[]leafSpec{
					{"Cordless Drills", "Cordless Drill Driver", "drill, drill driver, power drill, screwdriver", 129, 1.8, sizeNone},
					{"Impact Drivers", "Impact Driver", "impact wrench, driver, impact drill", 149, 1.5, sizeNone},
					{"Circular Saws", "Circular Saw", "saw, skill saw, power saw", 139, 3.5, sizeNone},
					{"Angle Grinders", "Angle Grinder", "grinder, disc grinder, cut-off tool", 89, 2.4, sizeNone},
					{"Jigsaws", "Jigsaw", "jig saw, scroll saw, sabre saw", 99, 2.2, sizeNone},
				}},
			{"Hand Tools",
				[]string{"Hardened Steel", "Chrome Vanadium", "Carbon Steel", "Fiberglass"},
				[]string{"a soft-grip handle", "a magnetic tip", "a rust-resistant finish", "a lifetime warranty", "a storage case", "an ergonomic grip"},
				[]leafSpec{
					{"Hammers", "Claw Hammer", "hammer, mallet, framing hammer", 24, 0.7, sizeNone},
					{"Screwdriver Sets", "Screwdriver Set", "screwdrivers, bit set, phillips, flathead", 29, 0.8, sizeNone},
					{"Wrenches", "Combination Wrench Set", "wrench, spanner, socket set", 39, 1.5, sizeNone},
					{"Pliers", "Pliers", "pliers, cutters, pincers", 19, 0.3, sizeNone},
					{"Utility Knives", "Utility Knife", "box cutter, stanley knife, retractable blade", 12, 0.2, sizeNone},
				}},
			{"Tool Storage",
				[]string{"Steel", "Aluminium", "Polypropylene", "Ballistic Nylon", "Plywood"},
				[]string{"a lockable latch", "removable trays", "ball-bearing drawer slides", "lockable casters", "a water-resistant base", "a padded shoulder strap"},
				[]leafSpec{
					{"Tool Boxes", "Tool Box", "toolbox, tool case, organizer", 45, 2.5, sizeSML},
					{"Tool Chests", "Rolling Tool Chest", "tool cabinet, tool cart, roller cabinet", 349, 45, sizeNone},
					{"Tool Bags", "Tool Bag", "tool tote, work bag, tool pouch", 39, 1.1, sizeSML},
					{"Workbenches", "Workbench", "work table, bench, workshop table", 199, 28, sizeNone},
				}},
			{"Measuring & Layout",
				[]string{"Aluminium", "ABS Plastic", "Steel", "Rubber-Coated ABS"},
				[]string{"a magnetic hook", "a belt clip", "auto-levelling", "a backlit display", "a shock-resistant housing", "drop protection"},
				[]leafSpec{
					{"Tape Measures", "Tape Measure", "measuring tape, tape rule, measure", 15, 0.3, sizeNone},
					{"Laser Levels", "Laser Level", "cross line laser, level, laser", 119, 0.6, sizeNone},
					{"Spirit Levels", "Spirit Level", "bubble level, torpedo level, level", 22, 0.5, sizeNone},
					{"Stud Finders", "Stud Finder", "wall scanner, stud detector, detector", 35, 0.2, sizeNone},
				}},
		},
	},
	{
		name: "Kitchen", weight: 1.2, related: 5,
		adjectives: []string{"Classic", "Nonstick", "Professional", "Compact", "Premium", "Everyday", "Artisan", "Modern"},
		uses:       []string{"busy weeknight dinners", "weekend baking", "entertaining guests", "small apartment kitchens", "everyday meal prep"},
		suffixes:   []string{"Set", "Deluxe", "Essentials", "2-Pack", "Signature"},
		brands: []string{"Maison Fontaine", "Cucina Bella", "Søndergaard", "Copperleaf", "Brewhaus", "Kitchenwise", "Ferro & Fiamma", "Håkansson",
			"Zestly", "Pâtisserie Noël", "Nordkök", "Sauté Society", "Morningcup", "Ironpan", "Bellavita Casa", "Grindwell",
			"Miska", "Olla Verde", "Tavola", "Crème Kitchen"},
		cats: []catSpec{
			{"Cookware",
				[]string{"Stainless Steel", "Cast Iron", "Enamel", "Copper", "Carbon Steel", "Hard-Anodized Aluminium"},
				[]string{"an induction-compatible base", "stay-cool handles", "a nonstick coating", "oven-safe construction", "dishwasher-safe parts", "a tempered glass lid"},
				[]leafSpec{
					{"Frying Pans", "Frying Pan", "skillet, fry pan, saute pan", 49, 1.2, sizeNone},
					{"Saucepans", "Saucepan", "pot, sauce pan, cooking pot", 45, 1.1, sizeNone},
					{"Dutch Ovens", "Dutch Oven", "casserole, cocotte, stockpot", 119, 5.2, sizeNone},
					{"Woks", "Wok", "stir fry pan, wok pan", 39, 1.4, sizeNone},
				}},
			{"Small Appliances",
				[]string{"Stainless Steel", "Glass", "BPA-Free Plastic", "Brushed Aluminium"},
				[]string{"automatic shut-off", "a digital display", "dishwasher-safe parts", "a programmable timer", "a removable water tank", "cord storage"},
				[]leafSpec{
					{"Coffee Makers", "Coffee Maker", "coffee machine, drip coffee maker, brewer", 89, 3.2, sizeNone},
					{"Espresso Machines", "Espresso Machine", "espresso maker, barista machine, coffee machine", 399, 8, sizeNone},
					{"Blenders", "Blender", "smoothie maker, mixer, food blender", 79, 3.5, sizeNone},
					{"Toasters", "Toaster", "2-slice toaster, bread toaster", 39, 1.8, sizeNone},
					{"Air Fryers", "Air Fryer", "airfryer, hot air fryer, fryer", 99, 4.5, sizeNone},
					{"Electric Kettles", "Electric Kettle", "kettle, water boiler, tea kettle", 39, 1.1, sizeNone},
				}},
			{"Cutlery",
				[]string{"Stainless Steel", "Damascus Steel", "Acacia Wood", "Bamboo"},
				[]string{"a full-tang blade", "an ergonomic grip", "a non-slip base", "juice grooves", "a razor-sharp edge", "a protective sheath"},
				[]leafSpec{
					{"Chef's Knives", "Chef's Knife", "kitchen knife, cook's knife, knife", 69, 0.25, sizeNone},
					{"Knife Sets", "Knife Block Set", "knife block, knives, knife set", 149, 3, sizeNone},
					{"Cutting Boards", "Cutting Board", "chopping board, carving board", 29, 1.2, sizeSML},
					{"Knife Sharpeners", "Knife Sharpener", "whetstone, honing steel, sharpening stone", 25, 0.4, sizeNone},
				}},
			{"Tableware",
				[]string{"Porcelain", "Stoneware", "Glass", "Stainless Steel", "Ceramic"},
				[]string{"dishwasher-safe parts", "a microwave-safe glaze", "a chip-resistant rim", "a service for four", "a gift box", "a stackable design"},
				[]leafSpec{
					{"Dinner Plates", "Dinner Plate Set", "plates, dinnerware, dinner set", 49, 4, sizeNone},
					{"Drinking Glasses", "Drinking Glass Set", "tumblers, glasses, glassware", 29, 1.5, sizeNone},
					{"Mugs", "Coffee Mug", "cup, mug, tea cup", 14, 0.35, sizeNone},
					{"Flatware Sets", "Flatware Set", "cutlery, silverware, flatware", 59, 2, sizeNone},
				}},
			{"Food Storage",
				[]string{"Glass", "Bamboo", "Stainless Steel", "BPA-Free Plastic", "Silicone"},
				[]string{"airtight lids", "a stackable design", "leak-proof seals", "BPA-free materials", "dishwasher-safe parts", "freezer-safe construction"},
				[]leafSpec{
					{"Storage Containers", "Food Storage Container Set", "tupperware, meal prep containers, food containers", 25, 0.8, sizeNone},
					{"Lunch Boxes", "Lunch Box", "bento box, lunch bag, lunchbox", 19, 0.4, sizeNone},
					{"Spice Racks", "Spice Rack", "spice organizer, spice shelf", 29, 1, sizeNone},
					{"Canisters", "Kitchen Canister Set", "jars, storage jars, canisters", 35, 2, sizeNone},
				}},
		},
	},
	{
		name: "Garden", weight: 0.9, related: 0,
		adjectives: []string{"Weatherproof", "Heavy-Duty", "Foldable", "Compact", "Rustic", "Lightweight", "Premium", "Classic"},
		uses:       []string{"small balconies", "large lawns", "patio entertaining", "vegetable gardens", "year-round outdoor use"},
		suffixes:   []string{"XL", "Plus", "Pro", "Set", "Eco"},
		brands: []string{"Greenfurrow", "Gärtnerhof", "Thornbury", "Meadowlark", "Ember & Oak", "Verdello", "Rootstock", "Hedgerow & Co",
			"Sunnybank", "Blümchen", "Fernhill", "Backyard Bros", "Terracotta Lane", "Willowmere", "Lövskog", "Sproutwell",
			"Smokeridge", "Patioza", "Wildbloom", "Grasslands"},
		cats: []catSpec{
			{"Lawn Care",
				[]string{"Steel", "Aluminium", "Polypropylene", "Galvanized Steel"},
				[]string{"a cordless battery", "a mulching function", "adjustable cutting height", "a foldable handle", "a quick-connect fitting", "a 3-year warranty"},
				[]leafSpec{
					{"Lawn Mowers", "Lawn Mower", "mower, lawnmower, grass cutter", 349, 28, sizeNone},
					{"String Trimmers", "String Trimmer", "weed eater, strimmer, weed whacker", 129, 4, sizeNone},
					{"Leaf Blowers", "Leaf Blower", "blower, leaf vacuum, yard blower", 149, 3, sizeNone},
					{"Sprinklers", "Lawn Sprinkler", "sprinkler, irrigation, oscillating sprinkler", 25, 0.6, sizeNone},
				}},
			{"Garden Tools",
				[]string{"Carbon Steel", "Stainless Steel", "Ash Wood", "Fiberglass", "Galvanized Steel"},
				[]string{"an ergonomic handle", "a rust-proof finish", "a lifetime warranty", "a cushioned grip", "a kink-resistant design", "a wall hook"},
				[]leafSpec{
					{"Pruning Shears", "Pruning Shears", "secateurs, pruners, clippers", 29, 0.3, sizeNone},
					{"Shovels", "Digging Shovel", "spade, shovel, digging spade", 35, 2, sizeNone},
					{"Rakes", "Garden Rake", "leaf rake, rake, lawn rake", 25, 1.2, sizeNone},
					{"Wheelbarrows", "Wheelbarrow", "garden cart, barrow, yard cart", 119, 15, sizeNone},
					{"Garden Hoses", "Garden Hose", "hose, hosepipe, water hose", 39, 3, sizeNone},
				}},
			{"Outdoor Furniture",
				[]string{"Teak", "Acacia Wood", "Resin Wicker", "Aluminium", "Polyester Canvas"},
				[]string{"a weather-resistant finish", "UV-protected fabric", "a rust-proof frame", "a foldable design", "removable cushions", "tool-free assembly"},
				[]leafSpec{
					{"Patio Chairs", "Patio Chair", "garden chair, outdoor chair, deck chair", 89, 6, sizeNone},
					{"Patio Tables", "Patio Table", "garden table, outdoor table", 249, 20, sizeNone},
					{"Hammocks", "Hammock", "hammock, swing bed, hanging chair", 79, 2.5, sizeNone},
					{"Parasols", "Patio Umbrella", "parasol, sun umbrella, sunshade", 129, 9, sizeNone},
					{"Sun Loungers", "Sun Lounger", "sunbed, chaise lounge, lounger", 159, 12, sizeNone},
				}},
			{"Planters & Pots",
				[]string{"Terracotta", "Ceramic", "Cedar", "Galvanized Steel", "Recycled Plastic"},
				[]string{"drainage holes", "a frost-resistant glaze", "a self-watering reservoir", "UV-stable colours", "a hanging chain", "a saucer included"},
				[]leafSpec{
					{"Planters", "Planter", "flower pot, plant pot, pot", 29, 2, sizeSML},
					{"Raised Beds", "Raised Garden Bed", "raised bed, planter box, vegetable bed", 119, 18, sizeNone},
					{"Hanging Baskets", "Hanging Basket", "hanging planter, basket", 22, 0.8, sizeNone},
					{"Seed Trays", "Seed Starter Tray", "seed tray, propagator, seedling tray", 15, 0.4, sizeNone},
				}},
			{"Grills & Outdoor Cooking",
				[]string{"Stainless Steel", "Cast Iron", "Porcelain-Coated Steel", "Cordierite Stone"},
				[]string{"a built-in thermometer", "cast iron grates", "a side burner", "an ash catcher", "foldable side shelves", "a weather cover"},
				[]leafSpec{
					{"Gas Grills", "Gas Grill", "bbq, barbecue, grill", 449, 40, sizeNone},
					{"Charcoal Grills", "Charcoal Grill", "kettle grill, barbecue, bbq", 149, 15, sizeNone},
					{"Pizza Ovens", "Outdoor Pizza Oven", "pizza oven, wood fired oven", 349, 20, sizeNone},
					{"Grill Tools", "BBQ Tool Set", "grill tools, barbecue utensils, tongs", 39, 1.5, sizeNone},
				}},
		},
	},
	{
		name: "Lighting", weight: 0.7, related: 7,
		adjectives: []string{"Dimmable", "Modern", "Vintage", "Scandinavian", "Industrial", "Minimalist", "Smart", "Energy-Saving"},
		uses:       []string{"cosy living rooms", "reading nooks", "kitchen islands", "entryways", "outdoor patios"},
		suffixes:   []string{"2-Pack", "4-Pack", "Mini", "XL", "Duo"},
		brands: []string{"Lumière Atelier", "Nordlys", "Glimmerhaus", "Brightnest", "Ljusdal", "Candela", "Halo & Hue", "Lampwright",
			"Luxora", "Edisonia", "Beacon Bay", "Lumos Living", "Filamento", "Solstice Lighting", "Lysverk", "Shadecraft",
			"Moonbeam", "Aurélie", "Lanternist", "Photonic Home"},
		cats: []catSpec{
			{"Ceiling Lights",
				[]string{"Brass", "Opal Glass", "Smoked Glass", "Rattan", "Linen", "Matte Steel"},
				[]string{"dimmable output", "a height-adjustable cord", "a standard E26 socket", "a remote control", "a warm white 2700K glow", "tool-free installation"},
				[]leafSpec{
					{"Pendant Lights", "Pendant Light", "hanging lamp, pendant lamp, ceiling pendant", 129, 2, sizeNone},
					{"Chandeliers", "Chandelier", "ceiling light, crystal chandelier", 349, 6, sizeNone},
					{"Flush Mount Lights", "Flush Mount Ceiling Light", "ceiling lamp, flush light", 79, 1.5, sizeNone},
					{"Ceiling Fans", "Ceiling Fan with Light", "fan, ceiling fan, fan light", 199, 7, sizeNone},
				}},
			{"Lamps",
				[]string{"Brass", "Ceramic", "Linen", "Marble", "Matte Steel", "Oak"},
				[]string{"an inline dimmer", "an adjustable arm", "a USB charging port", "a touch switch", "a weighted base", "a standard E26 socket"},
				[]leafSpec{
					{"Table Lamps", "Table Lamp", "bedside lamp, side lamp, lamp", 59, 1.8, sizeNone},
					{"Floor Lamps", "Floor Lamp", "standing lamp, arc lamp, lamp", 119, 5, sizeNone},
					{"Desk Lamps", "LED Desk Lamp", "task lamp, reading lamp, desk light", 45, 1.2, sizeNone},
					{"Night Lights", "Night Light", "nightlight, plug-in light, kids lamp", 15, 0.2, sizeNone},
				}},
			{"Outdoor Lighting",
				[]string{"Aluminium", "Stainless Steel", "Polycarbonate", "Black Steel"},
				[]string{"an IP65 weather rating", "a dusk-to-dawn sensor", "a motion sensor", "solar charging", "a warm white glow", "a 5-year warranty"},
				[]leafSpec{
					{"Solar Lights", "Solar Path Light", "solar lamp, garden light, path light", 29, 0.5, sizeNone},
					{"Wall Lanterns", "Outdoor Wall Lantern", "porch light, wall light, lantern", 69, 1.5, sizeNone},
					{"String Lights", "String Lights", "fairy lights, festoon lights, patio lights", 25, 0.6, sizeNone},
					{"Floodlights", "LED Floodlight", "security light, spotlight, flood light", 49, 1.3, sizeNone},
				}},
			{"Light Bulbs",
				[]string{"Glass", "Frosted Glass", "Amber Glass", "Silicone"},
				[]string{"a 25,000-hour lifespan", "dimmable output", "app control", "a warm white 2700K glow", "energy-efficient LEDs", "voice assistant support"},
				[]leafSpec{
					{"LED Bulbs", "LED Bulb", "light bulb, lamp bulb, bulb", 8, 0.06, sizeNone},
					{"Smart Bulbs", "Smart Bulb", "wifi bulb, color bulb, smart light", 19, 0.07, sizeNone},
					{"Filament Bulbs", "Vintage Filament Bulb", "edison bulb, filament lamp", 9, 0.05, sizeNone},
					{"LED Strips", "LED Strip Light", "light strip, tape light, led tape", 29, 0.3, sizeNone},
				}},
		},
	},
	{
		name: "Bath", weight: 0.7, related: 1,
		adjectives: []string{"Luxury", "Modern", "Quick-Dry", "Soft-Touch", "Spa", "Compact", "Classic", "Minimalist"},
		uses:       []string{"family bathrooms", "guest en-suites", "spa-like routines", "small bathrooms", "everyday comfort"},
		suffixes:   []string{"Set", "2-Pack", "Deluxe", "Plus", "Eco"},
		brands: []string{"Aquaverde", "Badezeit", "Fjordbad", "Splashworth", "Porcelana", "Hydrella", "Bathwell", "Serenity Spa",
			"Tidewater", "Cascadia Bath", "Kohlberg", "Rinsé", "Sudsworth", "Lavabo", "Mist & Marble", "Åkerbad",
			"Towelry", "Plumbright", "Steamhaus", "Ondine"},
		cats: []catSpec{
			{"Bathroom Fixtures",
				[]string{"Chrome", "Brushed Nickel", "Matte Black Steel", "Ceramic", "Porcelain"},
				[]string{"anti-limescale nozzles", "water-saving flow", "a soft-close seat", "a ceramic disc cartridge", "an easy-clean glaze", "a 10-year warranty"},
				[]leafSpec{
					{"Shower Heads", "Rain Shower Head", "showerhead, rainfall shower, shower", 59, 0.8, sizeNone},
					{"Bathroom Faucets", "Basin Faucet", "tap, mixer tap, sink faucet", 89, 1.5, sizeNone},
					{"Toilets", "Dual Flush Toilet", "wc, commode, lavatory", 299, 30, sizeNone},
					{"Bathroom Sinks", "Vessel Sink", "basin, washbasin, wash basin", 159, 12, sizeNone},
				}},
			{"Towels & Linens",
				[]string{"Egyptian Cotton", "Turkish Cotton", "Bamboo", "Waffle Cotton", "Organic Cotton"},
				[]string{"a quick-dry weave", "an anti-slip backing", "machine-washable fabric", "a plush 600 gsm pile", "a hanging loop", "a mould-resistant finish"},
				[]leafSpec{
					{"Bath Towels", "Bath Towel", "towel, bath sheet, hand towel", 19, 0.6, sizeSML},
					{"Bath Mats", "Bath Mat", "bath rug, shower mat, bathroom rug", 22, 0.7, sizeNone},
					{"Bathrobes", "Bathrobe", "robe, dressing gown, spa robe", 49, 1.1, sizeApparel},
					{"Shower Curtains", "Shower Curtain", "curtain, shower liner", 25, 0.5, sizeNone},
				}},
			{"Bathroom Storage",
				[]string{"Stainless Steel", "Bamboo", "Teak", "Lacquered MDF", "Aluminium"},
				[]string{"a rust-resistant finish", "soft-close doors", "a wall-mounted design", "adjustable shelves", "a mirrored front", "a moisture-resistant finish"},
				[]leafSpec{
					{"Medicine Cabinets", "Mirrored Medicine Cabinet", "bathroom cabinet, mirror cabinet", 129, 9, sizeNone},
					{"Towel Racks", "Towel Rack", "towel bar, towel rail, towel holder", 35, 1, sizeNone},
					{"Shower Caddies", "Shower Caddy", "shower shelf, bathroom organizer", 25, 0.7, sizeNone},
					{"Vanity Units", "Vanity Unit", "bathroom vanity, sink cabinet", 399, 35, sizeNone},
				}},
			{"Bath Accessories",
				[]string{"Ceramic", "Stainless Steel", "Bamboo", "Glass", "Concrete"},
				[]string{"a rust-resistant finish", "an LED backlight", "an anti-fog coating", "a step-on display", "a refillable pump", "a drip tray"},
				[]leafSpec{
					{"Soap Dispensers", "Soap Dispenser", "soap pump, lotion dispenser", 15, 0.3, sizeNone},
					{"Bathroom Mirrors", "Bathroom Mirror", "vanity mirror, wall mirror, mirror", 89, 4, sizeNone},
					{"Toilet Brushes", "Toilet Brush Set", "toilet brush, bowl brush", 15, 0.4, sizeNone},
					{"Bathroom Scales", "Digital Bathroom Scale", "scale, weighing scale, body scale", 29, 1.5, sizeNone},
				}},
		},
	},
	{
		name: "Furniture", weight: 1.0, related: 3,
		adjectives: []string{"Mid-Century", "Scandinavian", "Modern", "Rustic", "Upholstered", "Modular", "Classic", "Industrial"},
		uses:       []string{"small apartments", "open-plan living", "family homes", "home offices", "guest rooms"},
		suffixes:   []string{"Set of 2", "Collection", "Compact", "Large", "Deluxe"},
		brands: []string{"Fjällhem", "Søstrene Vik", "Möbelwerk", "Oakhaven", "Hjem & Hygge", "Bellweather", "Casa Tordo", "Nordvik",
			"Loftline", "Walnut & Wool", "Ashgrove", "Sitwell", "Dovetail Home", "Bramblewood", "Kvist", "Maison Ligne",
			"Sundquist", "Restwell", "Crate & Cove", "Élan Interiors"},
		cats: []catSpec{
			{"Living Room",
				[]string{"Velvet", "Leather", "Linen", "Solid Oak", "Walnut", "Bouclé"},
				[]string{"a solid wood frame", "stain-resistant fabric", "removable covers", "hidden storage", "built-in cable management", "feather-blend cushions"},
				[]leafSpec{
					{"Sofas", "Sofa", "couch, settee, loveseat", 899, 60, sizeNone},
					{"Armchairs", "Armchair", "accent chair, lounge chair, chair", 349, 18, sizeNone},
					{"Coffee Tables", "Coffee Table", "cocktail table, centre table", 199, 15, sizeNone},
					{"TV Stands", "TV Stand", "media console, tv bench, entertainment unit", 179, 25, sizeNone},
				}},
			{"Bedroom",
				[]string{"Solid Oak", "Pine", "Walnut", "Linen", "Velvet", "Memory Foam"},
				[]string{"soft-close drawers", "under-bed storage", "a sprung slatted base", "a breathable cover", "a 10-year guarantee", "anti-tip hardware"},
				[]leafSpec{
					{"Bed Frames", "Bed Frame", "bed, bedstead, platform bed", 449, 40, sizeBed},
					{"Mattresses", "Memory Foam Mattress", "mattress, foam mattress, hybrid mattress", 599, 30, sizeBed},
					{"Dressers", "Dresser", "chest of drawers, bureau, drawers", 349, 40, sizeNone},
					{"Nightstands", "Nightstand", "bedside table, night table", 119, 10, sizeNone},
				}},
			{"Dining Room",
				[]string{"Solid Oak", "Walnut", "Marble", "Rattan", "Ash", "Powder-Coated Steel"},
				[]string{"an extendable top", "a stackable design", "a footrest", "soft-close doors", "FSC-certified wood", "a scratch-resistant finish"},
				[]leafSpec{
					{"Dining Tables", "Dining Table", "kitchen table, extendable table", 499, 40, sizeNone},
					{"Dining Chairs", "Dining Chair", "kitchen chair, side chair", 129, 6, sizeNone},
					{"Bar Stools", "Bar Stool", "counter stool, stool", 99, 6, sizeNone},
					{"Sideboards", "Sideboard", "buffet, credenza, cabinet", 449, 45, sizeNone},
				}},
			{"Home Office",
				[]string{"Oak Veneer", "Steel", "Walnut", "Mesh", "Bamboo"},
				[]string{"built-in cable management", "height adjustment", "lumbar support", "lockable drawers", "adjustable shelves", "a 360° swivel"},
				[]leafSpec{
					{"Desks", "Writing Desk", "desk, computer desk, workstation", 249, 25, sizeNone},
					{"Office Chairs", "Office Chair", "desk chair, task chair, ergonomic chair", 199, 15, sizeNone},
					{"Bookcases", "Bookcase", "bookshelf, shelving unit, shelves", 149, 25, sizeNone},
					{"Filing Cabinets", "Filing Cabinet", "file cabinet, drawer unit, pedestal", 129, 18, sizeNone},
				}},
		},
	},
	{
		name: "Apparel", weight: 1.5, related: 8,
		adjectives: []string{"Slim-Fit", "Relaxed", "Classic", "Lightweight", "Waterproof", "Essential", "Vintage", "Stretch"},
		uses:       []string{"everyday wear", "weekend adventures", "the office", "travel", "cooler evenings"},
		suffixes:   []string{"2-Pack", "Original", "Heritage", "Essentials", "Limited Edition"},
		brands: []string{"Northbound", "Fjällvik", "Müller & Söhne", "Threadline", "Urban Sable", "Stridewell", "Lenormand", "Wolfhaven",
			"Cotton Crane", "Åre Outfitters", "Bluestitch", "Kestrel", "Maison Émile", "Solefield", "Drift & Denim", "Hemlock",
			"Vireo", "Bergkamm", "Linnéa", "Tailorbird"},
		cats: []catSpec{
			{"Men's Clothing",
				[]string{"Cotton", "Organic Cotton", "Denim", "Merino Wool", "Recycled Polyester", "Linen"},
				[]string{"breathable fabric", "reinforced seams", "a tagless neck", "machine-washable fabric", "a water-repellent coating", "stretch comfort"},
				[]leafSpec{
					{"Men's T-Shirts", "Crew Neck T-Shirt", "tee, t shirt, top, tshirt", 25, 0.2, sizeApparel},
					{"Men's Jeans", "Slim Fit Jeans", "denim, jeans, trousers, pants", 69, 0.7, sizeApparel},
					{"Men's Jackets", "Jacket", "coat, parka, outerwear", 149, 1.2, sizeApparel},
					{"Men's Shirts", "Oxford Shirt", "button-down, dress shirt, shirt", 49, 0.3, sizeApparel},
				}},
			{"Women's Clothing",
				[]string{"Cotton", "Linen", "Viscose", "Merino Wool", "Cashmere", "Denim"},
				[]string{"breathable fabric", "a relaxed fit", "hidden pockets", "machine-washable fabric", "recycled materials", "a flattering drape"},
				[]leafSpec{
					{"Dresses", "Wrap Dress", "dress, sundress, maxi dress", 79, 0.4, sizeApparel},
					{"Women's Tops", "Blouse", "top, tunic, shirt", 39, 0.2, sizeApparel},
					{"Women's Jeans", "High-Rise Jeans", "denim, jeans, skinny jeans", 75, 0.6, sizeApparel},
					{"Sweaters", "Knit Sweater", "jumper, pullover, cardigan", 69, 0.5, sizeApparel},
				}},
			{"Shoes",
				[]string{"Leather", "Suede", "Canvas", "Recycled Mesh", "Rubber"},
				[]string{"a cushioned insole", "a grippy rubber outsole", "a padded collar", "water-resistant uppers", "a removable footbed", "a pull-on tab"},
				[]leafSpec{
					{"Sneakers", "Sneaker", "trainers, running shoes, sneakers", 89, 0.8, sizeShoes},
					{"Boots", "Chelsea Boot", "boots, ankle boots, chelsea boots", 149, 1.4, sizeShoes},
					{"Sandals", "Sandal", "sandals, flip flops, slides", 45, 0.5, sizeShoes},
					{"Loafers", "Loafer", "slip-on, moccasin, loafers", 99, 0.9, sizeShoes},
				}},
			{"Accessories",
				[]string{"Leather", "Canvas", "Merino Wool", "Cashmere", "Recycled Nylon", "Cotton"},
				[]string{"RFID protection", "a padded laptop sleeve", "adjustable straps", "a water-resistant coating", "gift packaging", "a lifetime guarantee"},
				[]leafSpec{
					{"Backpacks", "Backpack", "rucksack, daypack, bag", 69, 0.9, sizeNone},
					{"Hats", "Beanie", "hat, cap, toque, beanie", 22, 0.1, sizeNone},
					{"Scarves", "Scarf", "shawl, wrap, scarf", 35, 0.2, sizeNone},
					{"Belts", "Leather Belt", "belt, waist belt", 39, 0.2, sizeApparel},
					{"Wallets", "Wallet", "billfold, purse, card holder", 45, 0.1, sizeNone},
				}},
		},
	},
	{
		name: "Electronics", weight: 1.3, related: 3,
		adjectives: []string{"Smart", "Portable", "Ultra-Slim", "Compact", "Premium", "Next-Gen", "Essential", "Pro"},
		uses:       []string{"home entertainment", "working from home", "gaming sessions", "travel", "the daily commute"},
		suffixes:   []string{"Gen 2", "Pro", "Max", "Mini", "Plus", "2026 Edition"},
		brands: []string{"Zenitron", "Voltaic", "Sonara", "Pixelon", "Auralis", "Nexwave", "Quantix", "Helix Audio",
			"Brightbyte", "Kairo", "Orbitel", "Tesvik", "Lumina Tech", "Signalis", "Cortexa", "Ampère",
			"Nimbus", "Vertexa", "Klangwerk", "Bitforge"},
		cats: []catSpec{
			{"TV & Home Theater",
				[]string{"Aluminium", "Recycled Plastic", "Fabric", "Brushed Metal"},
				[]string{"HDR10 support", "Dolby Atmos sound", "voice assistant support", "HDMI eARC", "a low-latency game mode", "a 2-year warranty"},
				[]leafSpec{
					{"Televisions", "4K Smart TV", "tv, television, led tv, smart tv", 599, 15, sizeNone},
					{"Soundbars", "Soundbar", "sound bar, tv speaker, home theater", 249, 3.5, sizeNone},
					{"Projectors", "Home Projector", "projector, beamer, video projector", 399, 3, sizeNone},
					{"Streaming Devices", "Streaming Stick", "media player, streamer, streaming box", 49, 0.1, sizeNone},
				}},
			{"Audio",
				[]string{"Aluminium", "Fabric", "Silicone", "Recycled Plastic", "Walnut"},
				[]string{"active noise cancelling", "Bluetooth 5.3", "a 30-hour battery", "IPX5 water resistance", "multipoint pairing", "USB-C charging"},
				[]leafSpec{
					{"Headphones", "Wireless Headphones", "headset, over-ear headphones, headphones", 149, 0.3, sizeNone},
					{"Earbuds", "True Wireless Earbuds", "earphones, in-ear, earbuds", 99, 0.06, sizeNone},
					{"Bluetooth Speakers", "Bluetooth Speaker", "portable speaker, wireless speaker, speaker", 79, 0.7, sizeNone},
					{"Turntables", "Turntable", "record player, vinyl player", 249, 5, sizeNone},
				}},
			{"Computers",
				[]string{"Aluminium", "Magnesium Alloy", "Recycled Plastic", "Carbon Fiber"},
				[]string{"a backlit keyboard", "USB-C charging", "a 14-hour battery", "a 144 Hz display", "hot-swappable switches", "an ergonomic shape"},
				[]leafSpec{
					{"Laptops", "Laptop", "notebook, ultrabook, computer", 1099, 1.6, sizeNone},
					{"Monitors", "Monitor", "display, screen, computer monitor", 279, 5, sizeNone},
					{"Keyboards", "Mechanical Keyboard", "keyboard, gaming keyboard", 99, 1, sizeNone},
					{"Mice", "Wireless Mouse", "mouse, computer mouse, gaming mouse", 39, 0.1, sizeNone},
				}},
			{"Phones & Accessories",
				[]string{"Silicone", "Tempered Glass", "Braided Nylon", "Recycled Plastic", "Leather"},
				[]string{"fast charging", "magnetic alignment", "drop protection", "a braided cable", "pass-through charging", "USB-C output"},
				[]leafSpec{
					{"Phone Cases", "Phone Case", "cover, case, bumper", 25, 0.05, sizeNone},
					{"Chargers", "USB-C Charger", "charger, power adapter, wall charger", 29, 0.15, sizeNone},
					{"Power Banks", "Power Bank", "portable charger, battery pack", 39, 0.3, sizeNone},
					{"Cables", "Charging Cable", "usb cable, cord, charging cord", 15, 0.08, sizeNone},
				}},
			{"Smart Home",
				[]string{"Recycled Plastic", "Aluminium", "Glass", "ABS Plastic"},
				[]string{"app control", "voice assistant support", "2K video", "night vision", "energy monitoring", "a 2-year warranty"},
				[]leafSpec{
					{"Smart Plugs", "Smart Plug", "wifi plug, smart outlet, socket", 19, 0.1, sizeNone},
					{"Security Cameras", "Security Camera", "cctv, ip camera, surveillance camera", 79, 0.4, sizeNone},
					{"Video Doorbells", "Video Doorbell", "doorbell camera, smart doorbell, doorbell", 129, 0.3, sizeNone},
					{"Smart Thermostats", "Smart Thermostat", "thermostat, heating control", 179, 0.4, sizeNone},
				}},
		},
	},
	{
		name: "Sports", weight: 1.0, related: 6,
		adjectives: []string{"Lightweight", "Pro", "Adjustable", "Foldable", "Ultralight", "Durable", "Training", "Competition"},
		uses:       []string{"home workouts", "weekend trails", "training sessions", "family camping trips", "competitive play"},
		suffixes:   []string{"Pro", "Elite", "Trail", "Sport", "XT"},
		brands: []string{"Peakform", "Trailhound", "Bergsport", "Ironstride", "Summitry", "Velocita", "Aquaflex", "Kinetiq",
			"Pacerline", "Ridgeback", "Longbow Athletics", "Tundra Trek", "Swiftfin", "Höhenweg", "Courtside", "Revolt Cycles",
			"Campfire Co", "Olympo", "Flexcore", "Gripstone"},
		cats: []catSpec{
			{"Fitness",
				[]string{"Steel", "Natural Rubber", "TPE Foam", "Neoprene", "Aluminium"},
				[]string{"a non-slip surface", "adjustable resistance", "a foldable frame", "a quick-adjust dial", "a carry strap", "a heart-rate monitor"},
				[]leafSpec{
					{"Dumbbells", "Adjustable Dumbbell", "dumbbells, hand weights, free weights", 149, 10, sizeNone},
					{"Yoga Mats", "Yoga Mat", "exercise mat, fitness mat, pilates mat", 35, 1.2, sizeNone},
					{"Treadmills", "Folding Treadmill", "running machine, treadmill", 899, 70, sizeNone},
					{"Resistance Bands", "Resistance Band Set", "exercise bands, loop bands", 25, 0.4, sizeNone},
					{"Exercise Bikes", "Exercise Bike", "spin bike, stationary bike, indoor cycle", 499, 40, sizeNone},
				}},
			{"Cycling",
				[]string{"Aluminium", "Carbon Fiber", "Steel", "EPS Foam", "Polycarbonate"},
				[]string{"hydraulic disc brakes", "a lightweight frame", "a rotational impact liner", "USB rechargeable batteries", "reflective details", "quick-release wheels"},
				[]leafSpec{
					{"Mountain Bikes", "Mountain Bike", "mtb, bicycle, bike", 799, 14, sizeSML},
					{"Road Bikes", "Road Bike", "racing bike, bicycle, bike", 1199, 9, sizeSML},
					{"Bike Helmets", "Bike Helmet", "cycling helmet, helmet", 69, 0.3, sizeSML},
					{"Bike Lights", "Bike Light Set", "bicycle light, bike lamp", 35, 0.2, sizeNone},
				}},
			{"Camping & Hiking",
				[]string{"Ripstop Nylon", "Down", "Aluminium", "Polyester", "Titanium"},
				[]string{"waterproof seams", "a compression sack", "an integrated rain cover", "a 3-season rating", "a piezo igniter", "a red night mode"},
				[]leafSpec{
					{"Tents", "Dome Tent", "tent, camping tent, backpacking tent", 199, 4, sizeNone},
					{"Sleeping Bags", "Sleeping Bag", "sleeping bag, bedroll, sleep sack", 99, 1.5, sizeNone},
					{"Hiking Backpacks", "Hiking Backpack", "trekking pack, rucksack, daypack", 149, 1.6, sizeNone},
					{"Camping Stoves", "Camping Stove", "backpacking stove, camp stove, burner", 59, 0.5, sizeNone},
					{"Headlamps", "Headlamp", "head torch, head lamp, flashlight", 29, 0.1, sizeNone},
				}},
			{"Team Sports",
				[]string{"Synthetic Leather", "Rubber", "Graphite", "Carbon Fiber", "Titanium"},
				[]string{"a machine-stitched cover", "a deep channel grip", "a shock-absorbing frame", "a match-grade bladder", "an oversized head", "a headcover"},
				[]leafSpec{
					{"Soccer Balls", "Soccer Ball", "football, ball, match ball", 29, 0.45, sizeNone},
					{"Basketballs", "Basketball", "ball, hoops, indoor basketball", 29, 0.6, sizeNone},
					{"Tennis Rackets", "Tennis Racket", "racquet, tennis racquet", 129, 0.3, sizeNone},
					{"Golf Clubs", "Golf Driver", "golf club, driver, golf", 299, 0.35, sizeNone},
				}},
			{"Water Sports",
				[]string{"Neoprene", "Silicone", "PVC Drop-Stitch", "Polycarbonate"},
				[]string{"anti-fog lenses", "a leak-proof seal", "UV protection", "a double-layer construction", "a dry-top snorkel", "a carry backpack"},
				[]leafSpec{
					{"Swim Goggles", "Swim Goggles", "goggles, swimming goggles", 19, 0.05, sizeNone},
					{"Paddle Boards", "Inflatable Paddle Board", "sup, paddleboard, stand up paddle", 399, 10, sizeNone},
					{"Wetsuits", "Wetsuit", "neoprene suit, diving suit, wet suit", 149, 1.5, sizeApparel},
					{"Snorkel Sets", "Snorkel Set", "snorkel, mask and fins, diving mask", 39, 0.8, sizeSML},
				}},
		},
	},
	{
		name: "Toys", weight: 0.8, related: 8,
		adjectives: []string{"Educational", "Classic", "Deluxe", "Creative", "Magnetic", "Musical", "Colourful", "Mini"},
		uses:       []string{"rainy afternoons", "family game nights", "curious toddlers", "budding engineers", "birthday gifts"},
		suffixes:   []string{"Deluxe", "Starter Set", "Junior", "100-Piece", "Classic Edition"},
		brands: []string{"Tinkertown", "Wunderbär", "Blockbright", "Pip & Pebble", "Marbleworks", "Little Otter", "Jigsy", "Playfjord",
			"Snuggles & Co", "Robotix Jr", "Kazoo Kids", "Brickly", "Puzzlewood", "Zoomwheel", "Hoppla", "Teddington",
			"Spielzeit", "Minimakers", "Starling Toys", "Dinodash"},
		cats: []catSpec{
			{"Building Toys",
				[]string{"Recycled Plastic", "Beechwood", "ABS Plastic", "Wood", "Cardboard"},
				[]string{"compatible pieces", "a storage box", "step-by-step instructions", "a 100-piece set", "magnetic connectors", "non-toxic materials"},
				[]leafSpec{
					{"Building Blocks", "Building Block Set", "bricks, construction toy, blocks", 39, 1, sizeNone},
					{"Magnetic Tiles", "Magnetic Tile Set", "magnet tiles, magnetic blocks", 59, 1.5, sizeNone},
					{"Marble Runs", "Marble Run", "marble track, marble maze", 45, 1.5, sizeNone},
					{"Model Kits", "Model Kit", "scale model, kit, model building", 35, 0.6, sizeNone},
				}},
			{"Games & Puzzles",
				[]string{"Cardboard", "Wood", "Recycled Paper", "Glass"},
				[]string{"2-6 players", "a 45-minute play time", "illustrated instructions", "a sturdy box", "easy-to-learn rules", "a bonus expansion"},
				[]leafSpec{
					{"Board Games", "Board Game", "family game, strategy game, game", 35, 1.2, sizeNone},
					{"Jigsaw Puzzles", "Jigsaw Puzzle", "puzzle, 1000 piece puzzle", 19, 0.8, sizeNone},
					{"Card Games", "Card Game", "playing cards, deck, cards", 14, 0.3, sizeNone},
					{"Chess Sets", "Chess Set", "chessboard, chess, checkers", 45, 1.5, sizeNone},
				}},
			{"Dolls & Plush",
				[]string{"Plush", "Organic Cotton", "Vinyl", "Wood", "Felt"},
				[]string{"machine-washable fabric", "embroidered eyes", "poseable limbs", "accessories included", "a gift box", "soft-touch fabric"},
				[]leafSpec{
					{"Stuffed Animals", "Plush Teddy Bear", "teddy, soft toy, stuffed animal, plushie", 24, 0.4, sizeSML},
					{"Dolls", "Fashion Doll", "doll, baby doll", 29, 0.4, sizeNone},
					{"Dollhouses", "Dollhouse", "doll house, playhouse", 129, 8, sizeNone},
					{"Action Figures", "Action Figure", "figurine, figure, collectible", 19, 0.2, sizeNone},
				}},
			{"Outdoor Play",
				[]string{"Steel", "Aluminium", "Recycled Plastic", "Cedar"},
				[]string{"a safety net", "adjustable handlebars", "light-up wheels", "a weather-resistant finish", "a quick-fold design", "UV-stable colours"},
				[]leafSpec{
					{"Scooters", "Kick Scooter", "scooter, push scooter", 79, 3.5, sizeNone},
					{"Trampolines", "Trampoline", "rebounder, garden trampoline", 299, 45, sizeNone},
					{"Water Guns", "Water Blaster", "water gun, squirt gun, water pistol", 15, 0.5, sizeNone},
					{"Sandboxes", "Sandbox", "sand pit, sandpit, sand box", 89, 12, sizeNone},
				}},
			{"Educational Toys",
				[]string{"Beechwood", "Wood", "Recycled Plastic", "Cardboard", "Bamboo"},
				[]string{"non-toxic paints", "rounded edges", "batteries included", "a guided activity book", "pieces sized for small hands", "a storage bag"},
				[]leafSpec{
					{"STEM Kits", "STEM Science Kit", "science kit, coding robot, experiment kit", 49, 0.8, sizeNone},
					{"Shape Sorters", "Wooden Shape Sorter", "shape sorter, baby toy, stacking toy", 22, 0.6, sizeNone},
					{"Art Supplies", "Kids' Art Set", "crayons, markers, drawing set", 25, 0.7, sizeNone},
					{"Musical Toys", "Toy Xylophone", "xylophone, kids instrument, musical toy", 25, 0.6, sizeNone},
				}},
		},
	},
}

// ecoMaterials earn the "eco" tag more often.
var ecoMaterials = map[string]bool{
	"Bamboo": true, "Organic Cotton": true, "Recycled Polyester": true, "Recycled Plastic": true,
	"Recycled Nylon": true, "Recycled Mesh": true, "Recycled Paper": true, "Cedar": true, "Wood": true,
	"Beechwood": true, "Linen": true, "Cardboard": true, "Felt": true,
}

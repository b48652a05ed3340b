package demo

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/aisle-search/aisle/catalog"
)

// Content generates the demo shop's non-product content, deterministically
// from seed, so searches return categories, brands, site pages and blog posts
// next to products: one category per hierarchy node, one entry per brand,
// the usual site pages and blog posts built from the catalog's vocabulary.
func Content(seed uint64) []catalog.Content {
	r := rand.New(rand.NewPCG(seed, seed^0x632be59bd9b4e019))
	var out []catalog.Content
	out = appendCategories(out, r)
	out = appendBrands(out, r)
	out = appendSitePages(out)
	out = appendBlogPosts(out, r)
	return out
}

func appendCategories(out []catalog.Content, r *rand.Rand) []catalog.Content {
	for di := range shop.depts {
		d := &shop.depts[di]
		ds := d.spec
		var cats []string
		for _, c := range ds.cats {
			cats = append(cats, strings.ToLower(c.name))
		}
		var top []string
		for _, db := range d.brands[:10] {
			top = append(top, shop.brands[db.brand].name)
		}
		out = append(out, catalog.Content{
			Kind:  catalog.KindCategory,
			ID:    "category:" + d.slug,
			Title: ds.name,
			Description: "Everything for " + ds.uses[r.IntN(len(ds.uses))] + ": shop " + joinAnd(cats) +
				" from brands like " + joinAnd(pickN(top, 3, r)) + ".",
			URL:       siteURL + "/c/" + d.slug,
			Keywords:  strings.Join(cats, ", "),
			Hierarchy: []string{ds.name},
			ImgURL:    siteURL + "/img/c/" + d.slug + ".jpg",
		})
		for ci := range d.cats {
			c := &d.cats[ci]
			var labels []string
			for _, li := range c.leaves {
				labels = append(labels, shop.leaves[li].labelLower)
			}
			slug := c.slug
			mats := pickN(c.matLower, 2, r)
			out = append(out, catalog.Content{
				Kind:  catalog.KindCategory,
				ID:    "category:" + slug,
				Title: c.spec.name,
				Description: "Browse " + strings.ToLower(c.spec.name) + " in " + strings.ToLower(ds.name) + ": " +
					joinAnd(labels) + ", in " + mats[0] + ", " + mats[1] + " and more.",
				URL:       siteURL + "/c/" + slug,
				Keywords:  strings.Join(labels, ", "),
				Hierarchy: []string{ds.name, c.spec.name},
				ImgURL:    siteURL + "/img/c/" + strings.ReplaceAll(slug, "/", "-") + ".jpg",
			})
			for _, li := range c.leaves {
				l := &shop.leaves[li]
				mats := pickN(c.matLower, 2, r)
				sellers := leafBrands(li)
				sellers = pickN(sellers[:min(6, len(sellers))], min(3, len(sellers)), r)
				out = append(out, catalog.Content{
					Kind:  catalog.KindCategory,
					ID:    "category:" + l.slug,
					Title: l.label,
					Description: "Shop " + l.labelLower + " from " + joinAnd(sellers) +
						". Compare prices, ratings and materials like " + mats[0] + " and " + mats[1] +
						", with free returns within 30 days.",
					URL:       siteURL + "/c/" + l.slug,
					Keywords:  l.keywords,
					Hierarchy: []string{l.path[0], l.path[1], l.path[2]},
					ImgURL:    siteURL + "/img/c/" + strings.ReplaceAll(l.slug, "/", "-") + ".jpg",
				})
			}
		}
	}
	return out
}

func appendBrands(out []catalog.Content, r *rand.Rand) []catalog.Content {
	for bi := range shop.brands {
		b := &shop.brands[bi]
		var depts, labels []string
		for _, di := range b.depts {
			d := &shop.depts[di]
			depts = append(depts, strings.ToLower(d.spec.name))
			for _, db := range d.brands {
				if db.brand == bi {
					for _, li := range db.leaves {
						labels = append(labels, shop.leaves[li].labelLower)
					}
				}
			}
		}
		shown := pickN(labels, min(3, len(labels)), r)
		founded := 1890 + r.IntN(130)
		home := &shop.depts[b.depts[0]]
		out = append(out, catalog.Content{
			Kind:  catalog.KindBrand,
			ID:    "brand:" + b.slug,
			Title: b.name,
			Description: b.name + " has made " + joinAnd(shown) + " since " + strconv.Itoa(founded) +
				", designed for " + home.spec.uses[r.IntN(len(home.spec.uses))] + ".",
			URL:      siteURL + "/b/" + b.slug,
			Keywords: strings.Join(depts, ", ") + ", " + strings.Join(shown, ", "),
			ImgURL:   siteURL + "/img/b/" + b.slug + ".png",
			ExtraData: map[string]string{
				"departments": strings.Join(depts, ", "),
				"founded":     strconv.Itoa(founded),
			},
		})
	}
	return out
}

// sitePages are the shop's service pages: path under the site, title,
// description and keywords.
var sitePages = [][4]string{
	{"help/shipping", "Shipping & Delivery", "Standard delivery in 3-5 business days, free on orders over $50. Express and next-day options at checkout.", "shipping, delivery, postage, express delivery, free shipping"},
	{"help/returns", "Returns & Refunds", "Return any item within 30 days for a full refund. Print a free return label or drop it off in store.", "returns, return policy, refund, exchange, money back"},
	{"help/order-tracking", "Track Your Order", "Follow your parcel from our warehouse to your door with the tracking number in your confirmation email.", "track order, order status, tracking number, where is my order"},
	{"help/payment", "Payment Options", "Pay by card, PayPal, Apple Pay, Google Pay or in four interest-free instalments.", "payment, credit card, paypal, instalments, klarna"},
	{"help/faq", "Frequently Asked Questions", "Answers to the questions we hear most about orders, delivery, returns and your account.", "faq, help, questions, support"},
	{"help/warranty", "Warranty & Repairs", "How to claim under a manufacturer's warranty and book a repair for tools, appliances and electronics.", "warranty, guarantee, repair, broken, defect"},
	{"help/size-guide", "Size Guide", "Find your size in clothing (XS to XXL) and shoes (EU 36 to 46), with measuring tips and conversion charts.", "size guide, size chart, sizing, shoe sizes, measurements"},
	{"help/product-recalls", "Product Recalls", "Current safety notices and recalls, with what to do if you own an affected product.", "recall, safety notice, product safety"},
	{"help/assembly", "Assembly Service", "Let our partners assemble furniture, grills and trampolines in your home, booked at checkout.", "assembly, installation, furniture assembly, fitting"},
	{"help/installation", "Installation Services", "Professional installation for lighting, bathroom fixtures, thermostats and video doorbells.", "installation, installer, fitting, electrician, plumber"},
	{"help/click-and-collect", "Click & Collect", "Order online and pick up in store in as little as two hours, free of charge.", "click and collect, pick up in store, collection, curbside"},
	{"help/price-match", "Price Match Promise", "Found it cheaper elsewhere? We match the price of identical in-stock items from major retailers.", "price match, lowest price, price promise"},
	{"help/contact", "Contact Us", "Chat with us, call 1-800-555-0199 or send a message; we answer within one business day.", "contact, customer service, phone number, email, chat, support"},
	{"help/accessibility", "Accessibility", "Our commitment to an accessible website and stores, and how to request assistance.", "accessibility, assistance, disability"},
	{"stores", "Store Locator", "Find your nearest Aisle Demo Shop with opening hours, directions and services.", "store locator, stores near me, opening hours, find a store, directions"},
	{"stores/events", "In-Store Events", "Workshops, product demos and kids' crafts at your local store.", "events, workshops, classes, demos"},
	{"gift-cards", "Gift Cards", "Give the gift of choice with physical and e-gift cards from $10 to $500.", "gift card, gift voucher, e-gift card, present"},
	{"gift-cards/balance", "Check Gift Card Balance", "Enter your card number and PIN to see the remaining balance.", "gift card balance, voucher balance"},
	{"gift-guide", "Gift Guide", "Gift ideas for every budget and everyone on your list, from toys to tools.", "gift ideas, gifts, presents, gift guide"},
	{"registry", "Wedding & Baby Registry", "Create a registry, share it with friends and family and get a completion discount.", "registry, wedding registry, baby registry, wish list"},
	{"membership", "Aisle Rewards", "Earn points on every purchase, get member-only prices and free express delivery.", "rewards, loyalty, membership, points, member prices"},
	{"membership/credit-card", "Aisle Credit Card", "Save 5% every day and spread the cost of larger purchases.", "credit card, store card, financing"},
	{"financing", "Financing Options", "Spread the cost of furniture, appliances and electronics over 6 to 24 months.", "financing, pay later, instalments, credit"},
	{"deals", "Deals of the Week", "This week's best offers across every department, updated every Monday.", "deals, offers, sale, discounts, clearance"},
	{"clearance", "Clearance", "Last-chance prices on discontinued items while stocks last.", "clearance, outlet, last chance, reduced"},
	{"new-arrivals", "New Arrivals", "The latest products to land in the shop, added every week.", "new, new arrivals, latest, just in"},
	{"bestsellers", "Bestsellers", "Our customers' favourite products, ranked by sales and reviews.", "bestsellers, top rated, popular, best sellers"},
	{"sustainability", "Sustainability", "How we cut packaging, choose recycled and FSC-certified materials and take back old products.", "sustainability, eco, recycling, environment, green"},
	{"recycling", "Take-Back & Recycling", "Bring back old electronics, batteries and bulbs for free recycling in any store.", "recycling, take back, old electronics, battery recycling"},
	{"about", "About Us", "Aisle Demo Shop has served homes and gardens since 2009; meet the team behind it.", "about us, company, our story"},
	{"careers", "Careers", "Join our stores, warehouses and tech team: open positions and benefits.", "careers, jobs, vacancies, work with us, hiring"},
	{"press", "Press Room", "News, press releases and media contacts.", "press, news, media, press release"},
	{"affiliates", "Affiliate Program", "Earn commission by recommending our products on your site or channel.", "affiliate, partner program, commission"},
	{"business", "Business Accounts", "Trade prices, invoicing and bulk orders for contractors and businesses.", "business, trade, bulk order, b2b, contractor"},
	{"account", "My Account", "Manage orders, addresses, payment methods and preferences.", "account, login, sign in, my orders, profile"},
	{"newsletter", "Newsletter", "Sign up for deals, new arrivals and how-to guides in your inbox.", "newsletter, email sign up, subscribe"},
	{"app", "Shop App", "Scan, shop and track orders with the Aisle Demo Shop app for iOS and Android.", "app, mobile app, ios, android"},
	{"privacy", "Privacy Policy", "What personal data we collect, why, and how to exercise your rights.", "privacy, data protection, gdpr, personal data"},
	{"cookies", "Cookie Settings", "Choose which cookies we may use and learn what they do.", "cookies, cookie settings, tracking"},
	{"terms", "Terms & Conditions", "The terms that apply to orders, delivery, returns and use of this site.", "terms, conditions, terms of sale, legal"},
}

func appendSitePages(out []catalog.Content) []catalog.Content {
	for _, p := range sitePages {
		out = append(out, catalog.Content{
			Kind:        catalog.KindSitePage,
			ID:          "page:" + p[0],
			Title:       p[1],
			Description: p[2],
			URL:         siteURL + "/" + p[0],
			Keywords:    p[3],
		})
	}
	return out
}

const blogPosts = 60

var blogAuthors = []string{"Maja Lindqvist", "Tomás Herrera", "Priya Natarajan", "Jonas Weiß", "Chloé Martin", "Sam Okafor"}

func appendBlogPosts(out []catalog.Content, r *rand.Rand) []catalog.Content {
	order := r.Perm(len(shop.leaves))
	seen := map[string]bool{}
	published := time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC)
	for i, n := 0, 0; n < blogPosts && i < len(order); i++ {
		l := &shop.leaves[order[i]]
		d := &shop.depts[l.dept]
		c := &d.cats[l.cat]
		mats := pickN(c.matLower, 2, r)
		feats := pickN(c.featNames, 2, r)
		sellers := leafBrands(order[i])
		brands := pickN(sellers[:min(6, len(sellers))], 2, r)
		sib := l.label
		if len(l.siblings) > 0 {
			sib = shop.leaves[l.siblings[r.IntN(len(l.siblings))]].label
		}
		steps := 3 + r.IntN(8)
		var title, kind, body string
		switch r.IntN(6) {
		case 0:
			title, kind = "How to Choose the Right "+l.noun, "buying-guide"
			body = "Not sure which " + l.nounLower + " to buy? We explain the difference between " + mats[0] + " and " + mats[1] +
				", why " + feats[0] + " matters and what to spend."
		case 1:
			title, kind = "The Best "+l.label+" of 2026: A Buying Guide", "buying-guide"
			body = "We tested " + l.labelLower + " from " + brands[0] + ", " + brands[1] + " and more for " +
				d.spec.uses[r.IntN(len(d.spec.uses))] + ". Here are our picks, with " + feats[0] + " and " + feats[1] + "."
		case 2:
			title, kind = "How to Clean and Care for Your "+l.noun, "how-to"
			a := article(l.nounLower) + " "
			if l.plural {
				a = ""
			}
			body = "A few minutes of care keeps " + a + l.nounLower + " going for years. Learn how to clean " + mats[0] +
				" safely and when to replace worn parts."
		case 3:
			title, kind = l.label+" vs "+sib+": Which Do You Need?", "buying-guide"
			body = "Both " + l.labelLower + " and " + lowerWords(sib) + " have their place. We compare price, " +
				feats[0] + " and everyday use to help you decide."
		case 4:
			title, kind = strconv.Itoa(steps)+" Ways to Get More from Your "+l.noun, "how-to"
			body = "From " + d.spec.uses[r.IntN(len(d.spec.uses))] + " to clever storage, these tips help your " +
				l.nounLower + " (or " + l.syns[0] + ") do more."
		default:
			title, kind = "How to Set Up Your "+l.noun+" in "+strconv.Itoa(steps)+" Easy Steps", "how-to"
			body = "Unbox, assemble and start using your new " + l.nounLower + " with this step-by-step guide, including " +
				feats[1] + " and the tools you need."
		}
		slug := slugify(title)
		if seen[slug] {
			continue
		}
		seen[slug] = true
		n++
		published = published.AddDate(0, 0, 7+r.IntN(21))
		out = append(out, catalog.Content{
			Kind:        catalog.KindBlogPost,
			ID:          "blog:" + slug,
			Title:       title,
			Description: body,
			URL:         siteURL + "/blog/" + slug,
			Keywords:    l.keywords + ", " + strings.ReplaceAll(kind, "-", " "),
			ImgURL:      siteURL + "/img/blog/" + slug + ".jpg",
			ExtraData: map[string]string{
				"type":        kind,
				"author":      blogAuthors[r.IntN(len(blogAuthors))],
				"published":   published.Format(time.DateOnly),
				"readingTime": strconv.Itoa(3+r.IntN(10)) + " min",
				"category":    strings.Join(l.path[:], " > "),
			},
		})
	}
	return out
}

// pickN returns k distinct elements of s in random order.
func pickN(s []string, k int, r *rand.Rand) []string {
	idx := r.Perm(len(s))
	out := make([]string, k)
	for i := range out {
		out[i] = s[idx[i]]
	}
	return out
}

// joinAnd joins "a", "b" and "c" as "a, b and c".
func joinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

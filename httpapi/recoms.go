package httpapi

import (
	"github.com/valyala/fasthttp"

	"github.com/aisle-search/aisle/engine"
)

// recoms serves POST /serve/recoms (spec section 3): JSON or text/plain.
// The call's key is engine.Recoms' to check. The visitor is the call's trackingUserId,
// email or customerId, else the retail_id cookie (the spec's tracking
// id).
func (s *Server) recoms(ctx *fasthttp.RequestCtx) error {
	b, err := body(ctx, s.opt.MaxBodyBytes)
	if err != nil {
		return err
	}
	var req engine.RecomsRequest
	if err := decode(b, &req); err != nil {
		return err
	}
	if req.TrackingUserID == "" && req.Email == "" && req.CustomerID == "" {
		req.TrackingUserID = cookieID(ctx)
	}
	bhv := s.opt.Behaviours
	if bhv == nil {
		bhv = s.noBehaviour
	}
	cc := watchClient(ctx)
	defer cc.stop()
	res, err := s.eng.Recoms(cc, &req, bearer(ctx), bhv, s.eng.Now())
	if err != nil {
		return err
	}
	s.recordImpressions(ctx, res.Impressions(req.TrackingUserID))
	s.writeJSON(ctx, res.AppendJSON)
	return nil
}

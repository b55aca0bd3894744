package serve

func (s *Server) routeOpenEnv() {}

type wsSessions struct{}

func newWSSessions(s *Server) *wsSessions { return &wsSessions{} }

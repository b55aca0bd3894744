package mcpserve

// MetricsChange is closed at the next change of the session metrics.
func (s *Server) MetricsChange() <-chan struct{} { return s.metricsChange() }

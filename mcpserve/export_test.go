package mcpserve

// ToolSpecs lets the tests build tool calls for a task whose tools are
// read from its intro (an imported sre_zero task).
var ToolSpecs = toolSpecs

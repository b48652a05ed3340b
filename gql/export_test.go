package gql

// AnalyticsOf is analyticsOf, for the tests of package gql_test.
var AnalyticsOf = analyticsOf

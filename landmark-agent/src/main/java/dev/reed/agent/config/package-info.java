/**
 * How operators configure the agent: environment-variable defaults for every option, and parsers
 * for durations and socket addresses.
 */
package dev.reed.agent.config;

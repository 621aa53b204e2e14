/**
 * Command-line options several commands take, as picocli mixins: one name, one meaning and one
 * description wherever they appear ({@code --dimensions}, {@code --kafka}, {@code --geoip}, ...).
 * A command that takes one declares {@code @Mixin} of it instead of its own {@code @Option}.
 */
package dev.reed.runtime.options;

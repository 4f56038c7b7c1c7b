//! SVG pictures: the one preamble (size, view box, font, white ground), the one closing tag and
//! the one escape of text, so that every plot and drawing is written the same way.

/// The start of a picture `width` × `height` pixels wide and high, with text in `font_size`
/// pixels of a sans-serif font on a white ground.
pub fn begin(width: f64, height: f64, font_size: u32) -> String {
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"{font_size}\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    )
}

/// Closes a picture opened by [`begin`].
pub fn end(svg: &mut String) {
    svg.push_str("</svg>\n");
}

/// `text` as the content of an element or an attribute: the four characters that XML gives a
/// meaning escaped, `&` first so that no escape is escaped again.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_once_and_opens_a_white_page() {
        assert_eq!(escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
        let mut s = begin(10.0, 20.5, 12);
        end(&mut s);
        assert!(s.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"20.5\" viewBox=\"0 0 10 20.5\""));
        assert!(s.contains("fill=\"white\""));
        assert!(s.ends_with("</svg>\n"));
    }
}

//! Saving a file from the browser: the text becomes a Blob, and a temporary
//! link to it is clicked, so the browser downloads it under the given name.

use wasm_bindgen::JsCast;

/// Offers `text` as a download named `name`.
///
/// # Errors
/// A readable reason when the page refuses (no document, blocked download).
pub fn offer(name: &str, text: &str) -> Result<(), String> {
    let fail = |what: &str| rust_i18n::t!("export.browser_failed", what = what).into_owned();
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| fail("no document"))?;
    let parts = js_sys::Array::of1(&wasm_bindgen::JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| fail("blob"))?;
    let url = web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("url"))?;
    let link: web_sys::HtmlAnchorElement = document
        .create_element("a")
        .map_err(|_| fail("link"))?
        .dyn_into()
        .map_err(|_| fail("link"))?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

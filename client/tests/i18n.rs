//! The language and theme chosen in the Settings window, on the real app
//! (no server needed). One test in this binary: the language is global to
//! the process, and the other test binaries read English.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use tabula_client::{Settings, TabulaApp};

#[test]
fn settings_switch_to_chinese_and_dark() {
    let settings = Settings {
        name: "小明".into(),
        ..Settings::default()
    };
    let app = TabulaApp::new(settings, || {});
    let mut h = Harness::builder()
        .with_size([1280.0, 800.0])
        .with_accessibility_check(false)
        .build_ui_state(|ui, app: &mut TabulaApp| app.frame(ui), app);
    h.run_steps(3);
    h.get_by_label("Settings").click();
    h.run_steps(3);
    h.get_by_label("简体中文").click();
    h.run_steps(3);
    assert!(
        h.query_all_by_label("设置").count() >= 2,
        "the Settings button and window in Chinese"
    );
    assert!(
        h.query_by_label("连接").is_some(),
        "the Connect button in Chinese"
    );
    assert!(h.query_by_label("Connect").is_none());
    // The new settings read in Chinese too, and work.
    for label in ["播放音效", "自动走唯一着法", "单击棋子即按骰子走", "海蓝"]
    {
        assert!(h.query_by_label(label).is_some(), "no {label}");
    }
    assert_eq!(h.query_all_by_label("棋盘：").count(), 2);
    h.get_by_label("夜间").click();
    h.run_steps(3);
    assert_eq!(
        h.state().settings.gomoku_style,
        tabula_client::settings::GomokuStyle::Dark
    );
    h.get_by_label("播放音效").click();
    h.run_steps(3);
    assert!(!h.state().settings.sound, "muted");
    h.get_by_label("深色").click();
    h.run_steps(3);
    assert_eq!(h.ctx.theme(), egui::Theme::Dark);
    assert_eq!(
        h.state().settings.theme,
        tabula_client::settings::Theme::Dark
    );
    h.get_by_label("浅色").click();
    h.run_steps(3);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    h.get_by_label("English").click();
    h.run_steps(3);
    assert!(h.query_by_label("Connect").is_some());
}

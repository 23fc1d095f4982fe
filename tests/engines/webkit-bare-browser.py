#!/usr/bin/python3
"""A bare WebKitGTK browser for WebKitWebDriver: one window that is all web view, so a test can give
the page any viewport (MiniBrowser's toolbar keeps its window at least 447 px wide, and it has no
headless mode: this runs under Xvfb). WebKitWebDriver starts it with --automation; console messages
go to stdout (WebKitWebDriver's output), where the journey reads the page's errors. With
--no-page-scripts the page's own scripts never run (JavaScript off for the visitor), while the
automation's scripts still do (WebKit's "enable-javascript-markup" setting). Each load's steps go
to the same file ("webkit-bare-browser: load finished <uri>"): the driver waits for a navigation to
finish there, outside WebDriver, because WebKitWebDriver can stop answering for good when a script
reaches it in the middle of one on a loaded machine.
Needs Debian's python3-gi, gir1.2-gtk-3.0 and gir1.2-webkit2-4.1."""
import os
import sys
import tempfile

import gi

gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
from gi.repository import Gtk, WebKit2  # noqa: E402


STDBUF = next((p for p in ("/usr/libexec/coreutils/libstdbuf.so", "/usr/lib/x86_64-linux-gnu/coreutils/libstdbuf.so") if os.path.exists(p)), "")


def main():
    if "--automation" not in sys.argv:
        sys.exit("usage: webkit-bare-browser.py --automation (started by WebKitWebDriver)")
    # WebKitWebDriver does not pass the browser's output on: with WEBKIT_CONSOLE_LOG set, the page's
    # console messages (written by the web process, which inherits these descriptors) go to that file.
    if os.environ.get("WEBKIT_CONSOLE_LOG"):
        log = os.open(os.environ["WEBKIT_CONSOLE_LOG"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.dup2(log, 1)
        os.dup2(log, 2)
        # Line by line: the web process is killed with the session, and would lose a buffered block.
        os.environ["_STDBUF_O"] = "L"
        os.environ["LD_PRELOAD"] = " ".join(filter(None, [os.environ.get("LD_PRELOAD"), STDBUF]))
    # Its own data folder (WEBKIT_DATA_DIR, which the test removes; else a temporary one): not an
    # ephemeral session, where WebKit writes no console messages at all.
    data = os.environ.get("WEBKIT_DATA_DIR") or tempfile.mkdtemp(prefix="webkit-bare-browser-")
    manager = WebKit2.WebsiteDataManager(base_data_directory=data, base_cache_directory=data)
    context = WebKit2.WebContext(website_data_manager=manager)
    context.set_automation_allowed(True)

    def create_web_view(_session):
        view = WebKit2.WebView(web_context=context, is_controlled_by_automation=True)
        view.get_settings().set_enable_write_console_messages_to_stdout(True)
        if "--no-page-scripts" in sys.argv:
            view.get_settings().set_enable_javascript_markup(False)
        window = Gtk.Window()
        window.set_default_size(1024, 768)
        window.add(view)
        view.connect("close", lambda *_: window.destroy())
        view.connect("load-changed", lambda v, event: os.write(1, f"webkit-bare-browser: load {event.value_nick} {v.get_uri()}\n".encode()))
        window.show_all()
        return view

    def automation_started(_context, session):
        info = WebKit2.ApplicationInfo()
        info.set_name("webkit-bare-browser")
        info.set_version(1, 0, 0)
        session.set_application_info(info)
        session.connect("create-web-view", create_web_view)

    context.connect("automation-started", automation_started)
    Gtk.main()


if __name__ == "__main__":
    main()

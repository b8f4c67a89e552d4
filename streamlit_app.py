"""KnowLoop web app entry point: `streamlit run streamlit_app.py`.

Only navigation lives here; each page is a file under pages/ and shares one Engine
(see pages/_shared.py), so the knowledge graph is opened once per process. Page icons are
emoji: a `:material/…:` icon makes the browser fetch the favicon from fonts.gstatic.com,
and the app must work offline.
"""

from __future__ import annotations

import streamlit as st

from pages._shared import start_up

st.set_page_config(page_title="KnowLoop", layout="wide")
start_up()

pg = st.navigation(
    [
        st.Page("pages/ask.py", title="Ask", icon="💬", default=True),
        st.Page("pages/compare.py", title="Compare", icon="⚖️"),
        st.Page("pages/evaluate.py", title="Evaluate", icon="📊"),
        st.Page("pages/kg_editor.py", title="KG editor", icon="✏️"),
        st.Page("pages/sources.py", title="Sources", icon="🗂️"),
        st.Page("pages/knowledge.py", title="Knowledge", icon="🧠"),
        st.Page("pages/data.py", title="Data", icon="📥"),
        st.Page("pages/settings.py", title="Settings", icon="⚙️"),
    ]
)
pg.run()

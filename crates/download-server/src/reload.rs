//! Keeps a server's catalogue in step with the object store's: every `--catalogue-poll`
//! seconds a conditional GET of `catalogue.json` (on its ETag); a changed catalogue is
//! loaded and checked aside, then its application swapped in whole. Requests never wait
//! for it, and a catalogue that fails to load leaves the previous one serving.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;

use crate::catalogue::Catalogue;
use crate::connections::App;
use crate::error::Error;
use crate::links::Links;
use crate::storage::ObjectStorage;

/// What the poller needs: where to look, and how to make an application of a catalogue.
pub(crate) struct Poller {
    pub storage: Arc<ObjectStorage>,
    /// The ETag of the catalogue being served.
    pub etag: Option<String>,
    pub every: Duration,
    pub links: Links,
    pub build: Arc<dyn Fn(Catalogue) -> Result<Router, Error> + Send + Sync>,
}

impl std::fmt::Debug for Poller {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Poller")
            .field("storage", &self.storage.url())
            .field("etag", &self.etag)
            .field("every", &self.every)
            .finish_non_exhaustive()
    }
}

impl Poller {
    /// Polls until dropped, swapping each new catalogue's application into `app`.
    pub(crate) async fn run(mut self, app: App) {
        let mut ticks = tokio::time::interval(self.every);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        ticks.tick().await;
        loop {
            ticks.tick().await;
            match self.check().await {
                Ok(Some(router)) => {
                    app.store(Arc::new(router));
                    tracing::info!(storage = self.storage.url(), "new catalogue in service");
                }
                Ok(None) => {}
                Err(err) => tracing::warn!(
                    "the catalogue in {} did not load, the previous one still serves: {err}",
                    self.storage.url()
                ),
            }
        }
    }

    /// The application of a new catalogue, or `None` when it has not changed.
    async fn check(&mut self) -> Result<Option<Router>, Error> {
        let Some(fetched) = self.storage.catalogue(self.etag.as_deref()).await? else {
            return Ok(None);
        };
        let catalogue =
            Catalogue::load_from_store(self.storage.clone(), fetched.text, self.links.clone())
                .await?;
        let build = self.build.clone();
        let router = tokio::task::spawn_blocking(move || build(catalogue))
            .await
            .map_err(|err| Error::Io(std::io::Error::other(err)))??;
        self.etag = fetched.etag;
        Ok(Some(router))
    }
}

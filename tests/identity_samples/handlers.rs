use std::sync::Arc;

use axum::{
    extract::{Path, State},
    http::StatusCode,
    routing::get,
    Json, Router,
};
use serde::{Deserialize, Serialize};
use tokio::sync::RwLock;

/// Shared application state.
#[derive(Clone, Default)]
pub struct AppState {
    todos: Arc<RwLock<Vec<Todo>>>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Todo {
    pub id: u64,
    pub title: String,
    #[serde(default)]
    pub done: bool,
}

#[derive(Deserialize)]
pub struct NewTodo {
    title: String,
}

/// The API's routes.
pub fn router(state: AppState) -> Router {
    Router::new()
        .route("/todos", get(list).post(create))
        .route("/todos/:id", get(show))
        .with_state(state)
}

async fn list(State(state): State<AppState>) -> Json<Vec<Todo>> {
    Json(state.todos.read().await.clone())
}

async fn show(
    State(state): State<AppState>,
    Path(id): Path<u64>,
) -> Result<Json<Todo>, StatusCode> {
    state
        .todos
        .read()
        .await
        .iter()
        .find(|todo| todo.id == id)
        .cloned()
        .map(Json)
        .ok_or(StatusCode::NOT_FOUND)
}

async fn create(State(state): State<AppState>, Json(input): Json<NewTodo>) -> (StatusCode, Json<Todo>) {
    let mut todos = state.todos.write().await;
    let todo = Todo {
        id: todos.len() as u64 + 1,
        title: input.title,
        done: false,
    };
    todos.push(todo.clone());
    (StatusCode::CREATED, Json(todo))
}

impl Todo {
    /// Marks the todo done.
    pub fn complete(&mut self) {
        self.done = true;
    }
}

impl<T> From<T> for NewTodo
where
    T: Into<String>,
{
    fn from(title: T) -> Self {
        Self { title: title.into() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn lists_nothing_at_first() {
        let state = AppState::default();
        let Json(todos) = list(State(state)).await;
        assert!(todos.is_empty());
    }
}

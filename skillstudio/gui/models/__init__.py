"""What views show, without widgets: Qt item models, their rows, and the open skill document."""

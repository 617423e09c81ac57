"""The Qt application: a thin layer of adapters and widgets over skillstudio.core."""
